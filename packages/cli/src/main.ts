#!/usr/bin/env node
import { Command } from 'commander';
import { serve } from './commands/serve.js';

const program = new Command('fermata').description('Fermata: a replicated delay-message broker');

program
  .command('serve')
  .description('run a Fermata node (configuration from --config / FERMATA_CONFIG and FERMATA_* variables)')
  .option('-c, --config <file>', 'YAML configuration file')
  .action(async (opts: { config?: string }) => {
    await serve(opts);
  });

await program.parseAsync(process.argv);
