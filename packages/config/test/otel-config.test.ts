import { expect } from 'chai';
import { ConfigError, loadConfig } from '../src/index.js';

/** OpenTelemetry's standard variables (README configuration), read here like every other. */
describe('OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES', () => {
  it('has no name and no attributes by default (each process names itself)', () => {
    expect(loadConfig({}).otelResource).to.deep.equal({ serviceName: undefined, attributes: {} });
  });

  it('reads key=value pairs, percent-decoded and trimmed, and OTEL_SERVICE_NAME over their service.name', () => {
    const resource = loadConfig({
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod, service.name=from-attrs,team=a%2Cb%20c,empty=',
    }).otelResource;
    expect(resource).to.deep.equal({
      serviceName: 'from-attrs',
      attributes: { 'deployment.environment.name': 'prod', 'service.name': 'from-attrs', team: 'a,b c', empty: '' },
    });
    expect(
      loadConfig({ OTEL_SERVICE_NAME: 'relay-eu', OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs' }).otelResource.serviceName,
    ).to.equal('relay-eu');
  });

  for (const bad of ['novalue', '=value', 'a=1,,b=2', 'a=%E0%A4%A']) {
    it(`stops start-up naming OTEL_RESOURCE_ATTRIBUTES for "${bad}"`, () => {
      expect(() => loadConfig({ OTEL_RESOURCE_ATTRIBUTES: bad })).to.throw(ConfigError, /^OTEL_RESOURCE_ATTRIBUTES: /);
    });
  }
});
