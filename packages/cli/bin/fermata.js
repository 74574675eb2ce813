#!/usr/bin/env node
// The `fermata` command. The bundle it loads is made by `npm run build`
// (scripts/build-packages.mjs); this file is committed so npm links the command
// at install time, before anything is built.
import '../dist/fermata.js';
