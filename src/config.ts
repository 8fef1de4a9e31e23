/**
 * Configuration: one zod schema over the environment, read in one place. Every problem is
 * reported at once, each with what to set. `.env.example` mirrors this schema key for key.
 */
import { resolve } from 'node:path';
import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));
const url = (example: string) =>
  optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), `must be an http(s) URL such as ${example}`);

export const ConfigSchema = z.object({
  DATA_DIR: z.string().trim().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
});

export type RawConfig = z.infer<typeof ConfigSchema>;

export interface Config {
  dataDir: string;
  dbPath: string;
  indexPath: string;
  logLevel: RawConfig['LOG_LEVEL'];
  logFormat: RawConfig['LOG_FORMAT'];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Configuration has ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee .env.example for every setting.`);
  }
}

/**
 * Reads the configuration from `env` (process.env by default; dotenv has already merged `.env`).
 * Throws a {@link ConfigError} listing every problem with its fix.
 * @example const config = loadConfig({ DATA_DIR: '/var/lib/paperscout' });
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
    );
  }
  const raw = parsed.data;
  const dataDir = resolve(raw.DATA_DIR);
  return {
    dataDir,
    dbPath: resolve(dataDir, 'paperscout.db'),
    indexPath: resolve(dataDir, 'index.bin'),
    logLevel: raw.LOG_LEVEL,
    logFormat: raw.LOG_FORMAT,
  };
}

export { optionalText, url };
