/**
 * What every entry point does first: read `.env`, load the configuration, create the logger.
 * A configuration problem ends the process with the list of fixes, not a stack trace.
 */
import dotenv from 'dotenv';
import { ConfigError, loadConfig, type Config } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/logger.js';

export function bootstrap(defaults: Record<string, string> = {}): { config: Config; log: Logger } {
  dotenv.config({ quiet: true });
  try {
    const config = loadConfig({ ...defaults, ...process.env });
    return { config, log: createLogger(config) };
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}
