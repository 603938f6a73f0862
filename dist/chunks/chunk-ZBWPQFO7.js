import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);
var F=/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;function r(u){return u.replace(/<!--[\s\S]*?(-->|$)/g,"").replace(/\r\n?/g,`
`).replace(F,"")}export{r as a};
