/**
 * Secrets at rest: platform tokens are sealed with AES-256-GCM before they reach the store, under
 * a key derived (HKDF-SHA256) from a secret the operator keeps outside the database
 * (SLACK_STATE_SECRET, or INSTALLATION_KEY when set). A copy of the database alone gives no
 * token. Each sealed value is bound to its row (the additional data names it), so a value copied
 * into another row does not open there.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** The version prefix of sealed values: a later scheme can tell its own from these. */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A value that would not open: sealed under another key, for another row, or altered. */
export class SealError extends Error {
  override readonly name = 'SealError';
}

export interface TokenBox {
  /** Seals `plain` for the row `bound` (e.g. an installation's key). */
  seal(plain: string, bound: string): string;
  /** Opens what {@link seal} made for the same row; throws a {@link SealError} otherwise. */
  open(sealed: string, bound: string): string;
}

/**
 * A box whose key is derived from `secret` (at least 16 characters).
 * @example const box = tokenBox(process.env.INSTALLATION_KEY!); box.open(box.seal('xoxb-1', 'T1'), 'T1') // 'xoxb-1'
 */
export function tokenBox(secret: string): TokenBox {
  if (secret.length < 16) throw new Error('tokenBox: the secret must be at least 16 characters');
  const key = Buffer.from(hkdfSync('sha256', secret, 'paperscout/installations', 'token-box v1', 32));
  return {
    seal(plain, bound) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(bound, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed, bound) {
      const [version, data] = sealed.split('.', 2);
      if (version !== VERSION || !data) throw new SealError(`not a sealed value of this version (${VERSION})`);
      const raw = Buffer.from(data, 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new SealError('sealed value too short');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(bound, 'utf8'));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch (err) {
        throw new SealError('the sealed value does not open with this key (was INSTALLATION_KEY or SLACK_STATE_SECRET changed?)', { cause: err });
      }
    },
  };
}
