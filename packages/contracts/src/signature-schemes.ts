/**
 * How a request is signed (docs/integrating.md "Signing"): hmac-sha256 over the RFC 8785 form of
 * the body, or the legacy md5 of secret + timestamp + client. A client's scheme is configured.
 */
export const SIGNATURE_SCHEMES = ['hmac-sha256', 'md5'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];
