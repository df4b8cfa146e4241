#!/usr/bin/env node
// usage: node shim.mjs LOGFILE COMMAND [ARGS...]: the logging stdio relay between Claude Code and mcp-read (loggingShim in ../common/relay.mjs).
import { loggingShim } from '../common/relay.mjs';
loggingShim(process.argv.slice(2));
