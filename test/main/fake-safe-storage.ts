import type { SafeStorageLike } from '../../main/secret-store.js';

/** Stands in for the OS keychain: a reversible byte transform with a version prefix, like Chromium's "v10" blobs. */
export function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}): SafeStorageLike & { calls: number } {
  const fake = {
    calls: 0,
    isEncryptionAvailable: () => options.available ?? true,
    encryptString(plain: string) {
      fake.calls++;
      const bytes = Buffer.from(plain, 'utf8').map((b) => b ^ 0xa5);
      return Buffer.concat([Buffer.from('v10'), bytes]);
    },
    decryptString(cipher: Buffer) {
      if (cipher.subarray(0, 3).toString() !== 'v10')
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(cipher.subarray(3).map((b) => b ^ 0xa5)).toString('utf8');
    },
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
  };
  return fake;
}
