// Preloaded with `node --import`: records the URL of every module the process resolves into
// the file named by ENGI_TRACE_FILE, so a test can prove which code a command loaded.
import {register} from 'node:module';

register('./trace-imports-hooks.mjs', import.meta.url);
