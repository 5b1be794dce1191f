export { addressGroup } from './address-group.js';
export { forbiddenAddressReason, type AddressPolicy } from './address-policy.js';
export { systemResolver, type LookupAddress, type Resolver } from './resolver.js';
export { rememberingResolver } from './remembering-resolver.js';
export {
  checkSendUrl,
  checkSendUrlStatically,
  rememberingStaticCheck,
  type SendUrlVerdict,
  type StaticSendUrlVerdict,
} from './send-url.js';
export { createGuardedLookup, SEND_URL_FORBIDDEN } from './guarded-lookup.js';
