import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
import{a as t,b as o,c as i}from"./chunk-O22RARHD.js";import"./chunk-EEEC4TXW.js";var m=t.plugin(o,i);export{m as DirectOctokit};
