// A preload (`node --import`) for tests: every module the process and its worker threads resolve is
// appended, one URL a line, to the file CAIRN_MODULE_LOG names, so a test can say what a process loaded.
import { register } from 'node:module';

if (process.env.CAIRN_MODULE_LOG) register('./module-log-hooks.mjs', import.meta.url, { data: { file: process.env.CAIRN_MODULE_LOG } });
