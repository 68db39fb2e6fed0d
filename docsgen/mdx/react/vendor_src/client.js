import * as preact from "preact";
import * as hooks from "preact/hooks";
window.__dgPreact = { preact, hooks };
