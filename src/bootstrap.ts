/**
 * What every entry point does first: read `.env`, load the configuration, create the logger.
 * A configuration problem ends the process with the list of fixes, not a stack trace.
 */
import dotenv from 'dotenv';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, scrubSecrets, type Logger } from './logger.js';

export function bootstrap(defaults: Record<string, string> = {}): { config: Config; log: Logger } {
  dotenv.config({ quiet: true });
  try {
    const config = loadConfig(undefined, defaults);
    return { config, log: createLogger(config) };
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${scrubSecrets(err.message, err.secrets)}\n`);
      process.exit(2);
    }
    throw err;
  }
}
