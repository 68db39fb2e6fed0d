export const process = { env: { NODE_ENV: "production" }, cwd: () => "/", platform: "docsgen", version: "", versions: {} };
