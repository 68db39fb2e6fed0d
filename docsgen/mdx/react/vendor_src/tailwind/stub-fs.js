function unavailable() { throw new Error("no file system in docsgen's Tailwind engine"); }
export default { readFileSync: unavailable, statSync: unavailable, existsSync: () => false, promises: { readFile: unavailable } };
export const readFileSync = unavailable, statSync = unavailable, existsSync = () => false;
