export { serve } from './commands/serve.js';
