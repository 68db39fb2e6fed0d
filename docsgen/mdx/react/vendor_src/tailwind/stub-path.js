export function join(...parts) { return parts.join("/"); }
export function resolve(...parts) { return parts.join("/"); }
export function dirname(p) { return String(p).replace(/\/[^/]*$/, ""); }
export function basename(p) { return String(p).replace(/.*\//, ""); }
export function extname(p) { const m = /\.[^./]*$/.exec(String(p)); return m ? m[0] : ""; }
export function isAbsolute(p) { return String(p).startsWith("/"); }
export function relative(a, b) { return b; }
export function normalize(p) { return p; }
export const sep = "/", delimiter = ":";
export default { join, resolve, dirname, basename, extname, isAbsolute, relative, normalize, sep, delimiter };
