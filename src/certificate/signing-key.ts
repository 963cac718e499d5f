import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/** A key pair that signs certificates: Ed25519 (RFC 8032), read from PEM. */
export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  keyId: string;
}

/** A public key that checks certificates, with its key id. */
export interface VerifyKey {
  publicKey: KeyObject;
  keyId: string;
}

/**
 * The DSSE KEYID of a public key (DSSE protocol v1.0.2: "agreed upon out-of-band"): the lowercase
 * hex SHA-256 of its DER SubjectPublicKeyInfo, what
 * `openssl pkey -pubin -in pub.pem -outform DER | sha256sum` prints. It only narrows which key is
 * tried; the signature is what is checked.
 */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/**
 * Reads an Ed25519 private key (PKCS #8 PEM, as `openssl genpkey -algorithm ed25519` writes it).
 * Throws an Error whose message names `label`, never the key's content.
 */
export function signingKeyFromPem(pem: string | Buffer, label: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    throw new Error(`${label} is not a PEM private key (${reason(error)})`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error(
      `${label} is a ${privateKey.asymmetricKeyType ?? 'unknown'} key; certificates are signed with Ed25519 (openssl genpkey -algorithm ed25519)`,
    );
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

/** Reads an Ed25519 public key (SPKI PEM; a private key's public half is taken too). */
export function verifyKeyFromPem(pem: string | Buffer, label: string): VerifyKey {
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: pem, format: 'pem' });
  } catch (error) {
    throw new Error(`${label} is not a PEM public key (${reason(error)})`);
  }
  if (publicKey.asymmetricKeyType !== 'ed25519')
    throw new Error(
      `${label} is a ${publicKey.asymmetricKeyType ?? 'unknown'} key; certificates use Ed25519`,
    );
  return { publicKey, keyId: keyIdOf(publicKey) };
}

/** Node's reason, without anything of the input (its messages name codes, not key bytes). */
function reason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'unreadable';
}
