import { expect } from 'chai';
import { ConfigError, loadConfig, type Env } from '../../src/index.js';

/** The message loadConfig stops start-up with (exit 78); fails the test when it accepts the environment. */
export function refusal(env: Env): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}
