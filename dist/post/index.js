import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{f as t}from"../chunks/chunk-KCCRSRIO.js";import"../chunks/chunk-EEEC4TXW.js";if(process.env[`STATE_${t.Comment}`]){let{post:o}=await import("../chunks/post-main-RUVBLREJ.js");await o()}
