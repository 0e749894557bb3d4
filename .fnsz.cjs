const esbuild=require("esbuild");const fs=require("fs");const zlib=require("zlib");
const src=fs.readFileSync("endpoint.ts","utf8");
const start=src.indexOf("// #region openapi");
const r=esbuild.transformSync(src,{loader:"ts",minify:false});
// split the compiled (non-minified) output into top-level statements
const out=r.code; const lines=out.split("\n");
let chunks=[],cur=[],name="";
for(const l of lines){ if(/^(export )?(async )?(function|const|let|class|var) /.test(l)&&cur.length){chunks.push([name,cur.join("\n")]);cur=[];} if(/^(export )?(async )?(function|const|let|class|var) /.test(l)) name=l.slice(0,60); cur.push(l);}
chunks.push([name,cur.join("\n")]);
const res=chunks.map(([n,c])=>{const m=esbuild.transformSync(c,{minify:true,loader:"js"}).code; return [m.length,n];}).sort((a,b)=>b[0]-a[0]);
let tot=0;for(const x of res)tot+=x[0];console.log("total",tot);
console.log(res.slice(0,70).map(x=>x[0]+"  "+x[1]).join("\n"));
