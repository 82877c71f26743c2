import { chmodSync, closeSync, openSync, statSync } from 'node:fs';

/**
 * Files in DATA_DIR that hold secrets — the SQLite database (password hashes, the Fever keys, tokens) with its
 * -wal and -shm files, and the generated secret — are readable by their owner only, 0600 (decisions.md "Data files
 * are the owner's only"), whatever the umask.
 */
export const PRIVATE_MODE = 0o600;

/** Creates the file empty with mode 0600 when it does not exist yet, so it is never readable by others. */
export function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/**
 * Takes group and other rights away from an existing file (one created by an older version or a loose umask).
 * A file that is not there is fine; one we may not change (another owner, a read-only mount) is left as it is:
 * the server still runs, as before.
 */
export function tightenMode(file: string): void {
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE_MODE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM' && code !== 'EROFS') throw err;
  }
}
