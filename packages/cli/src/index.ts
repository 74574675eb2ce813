export { serve } from './commands/serve.js';
export { ExitCode } from './exit-codes.js';
export { buildProgram } from './program.js';
