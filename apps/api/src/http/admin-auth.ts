import type { AuthThrottle } from '@dialog-relay/chat';
import { AppError } from '@dialog-relay/contracts';
import type { NextFunction, Request, Response } from 'express';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { loginPage } from './admin-login-page.js';

/** What an admin credential opens: read (ADMIN_TOKEN: metrics, dashboard read-only) or write (ADMIN_WRITE_TOKEN). */
export type AdminAccess = 'none' | 'read' | 'write';

export const ADMIN_COOKIE = 'dr_admin';
/** The browser session lasts this long; the cookie holds a value derived from the token, never the token. */
const SESSION_MAX_AGE_MS = 8 * 3600_000;

export interface AdminTokens {
  readToken: string | undefined;
  writeToken: string | undefined;
}

export interface AdminGate {
  /** The access of this request, from `Authorization: Bearer …` or the session cookie. */
  accessOf(req: Request): AdminAccess;
  /** The access a token typed into the login form gives; a wrong one counts as a failure, and too many answer 429. */
  loginWith(req: Request, token: string): Promise<AdminAccess>;
  /** Sets the HttpOnly, SameSite=Strict session cookie for this access. */
  startSession(req: Request, res: Response, access: Exclude<AdminAccess, 'none'>): void;
  /** Middleware: 401 (login form for browsers, envelope otherwise) below `needed`; 429 after too many wrong credentials. */
  require(needed: Exclude<AdminAccess, 'none'>): (req: Request, res: Response, next: NextFunction) => Promise<void>;
  configured: boolean;
}

const equal = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** An unforgeable session value for a token: changing the token ends every session. */
const sessionValue = (access: string, token: string): string =>
  `${access}.${createHmac('sha256', token).update(`dialog-relay admin session ${access}`).digest('base64url')}`;

function cookieOf(req: Request): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === ADMIN_COOKIE) return value.join('=');
  }
  return undefined;
}

/** Failed admin credentials are counted under this name, apart from every client id. */
const ADMIN_THROTTLE_NAME = '(admin)';

/**
 * docs/service-rules.md §12, §16: ADMIN_TOKEN reads, ADMIN_WRITE_TOKEN writes; a browser logs in once
 * for a cookie. Wrong credentials (a bearer token, a session cookie or a login form's token) count
 * as failed authentications of their source address, like wrong signatures: an address over its
 * limit gets 429 before any check, and failures over the admin name's limit get 429 instead of 401.
 */
export function createAdminGate(tokens: AdminTokens, throttle?: AuthThrottle): AdminGate {
  const levels = (
    [
      ['write', tokens.writeToken],
      ['read', tokens.readToken],
    ] as const
  ).filter((entry): entry is readonly ['write' | 'read', string] => entry[1] !== undefined);
  const sessions = levels.map(([access, token]) => [access, sessionValue(access, token)] as const);

  const accessOfToken = (token: string): AdminAccess => levels.find(([, expected]) => equal(token, expected))?.[0] ?? 'none';
  const accessOf = (req: Request): AdminAccess => {
    const header = req.get('authorization');
    // RFC 9110 §11.1: the scheme name is case-insensitive.
    if (header !== undefined) return /^bearer /i.test(header) ? accessOfToken(header.slice('Bearer '.length)) : 'none';
    const cookie = cookieOf(req);
    return cookie === undefined ? 'none' : (sessions.find(([, expected]) => equal(cookie, expected))?.[0] ?? 'none');
  };

  const rateLimited = (retryAfterS: number): AppError =>
    new AppError('rate_limited', 'Too many wrong admin credentials from this address; wait before retrying.', { retryAfterS });
  /** The access `check` finds, counting a wrong credential; throws rate_limited over the limits. */
  const admit = async (req: Request, presented: boolean, check: () => AdminAccess): Promise<AdminAccess> => {
    if (!throttle || !presented) return check();
    const sourceAddress = (): string | undefined => req.ip ?? req.socket.remoteAddress;
    const addressWait = await throttle.addressWait(sourceAddress);
    if (addressWait !== undefined) throw rateLimited(addressWait);
    const access = check();
    if (access !== 'none') return access;
    const wait = await throttle.failed({ client: ADMIN_THROTTLE_NAME, sourceAddress });
    if (wait !== undefined) throw rateLimited(wait);
    return access;
  };

  return {
    configured: levels.length > 0,
    accessOf,
    loginWith: (req, token) => admit(req, true, () => accessOfToken(token)),
    startSession(req, res, access) {
      const value = sessions.find(([level]) => level === access)?.[1];
      if (value === undefined) return;
      res.cookie(ADMIN_COOKIE, value, {
        httpOnly: true,
        sameSite: 'strict',
        secure: req.secure,
        path: '/admin',
        maxAge: SESSION_MAX_AGE_MS,
      });
    },
    require(needed) {
      return async (req, res, next) => {
        let access: AdminAccess;
        try {
          access = await admit(req, req.get('authorization') !== undefined || cookieOf(req) !== undefined, () => accessOf(req));
        } catch (error) {
          next(error);
          return;
        }
        if (access === 'write' || access === needed) {
          res.locals['adminAccess'] = access;
          next();
          return;
        }
        if (access === 'read') {
          next(new AppError('forbidden', 'This needs ADMIN_WRITE_TOKEN; ADMIN_TOKEN opens the dashboard read-only.'));
          return;
        }
        const message = levels.length === 0 ? 'Set ADMIN_TOKEN to open the admin endpoints.' : 'Admin token missing or wrong.';
        if (req.method === 'GET' && req.accepts(['json', 'html']) === 'html') {
          res
            .status(401)
            .type('html')
            .send(loginPage({ next: req.originalUrl, configured: levels.length > 0, failed: false }));
          return;
        }
        next(new AppError('unauthorized', message));
      };
    },
  };
}
