import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
function s(n=["SIGINT","SIGTERM"]){let e=new AbortController,r=o=>e.abort(new Error(`Received ${o}`));for(let o of n)process.on(o,r);return{signal:e.signal,dispose:()=>{for(let o of n)process.off(o,r)}}}export{s as a};
