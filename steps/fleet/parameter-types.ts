import { defineParameterType } from '@cucumber/cucumber';
import type { FleetRole, McpTokenRole, SiteRole } from './support/fleet-target.ts';

const CALLERS: Record<string, FleetRole> = {
  "the partner's colleague": 'partnerColleague',
  "the partner's viewer": 'viewer',
  'the other partner': 'otherPartner',
  'the partner': 'partner',
};

/** `{fleetCaller}`: who signs in (steps/fleet/support/fleet-target.ts, `FleetRole`). */
defineParameterType({
  name: 'fleetCaller',
  regexp: /the partner's colleague|the partner's viewer|the other partner|the partner/,
  transformer: (text: string): FleetRole => CALLERS[text] ?? 'partner',
});

const SITES: Record<string, SiteRole> = {
  "the partner's own site": 'own',
  "the partner's second site": 'second',
  "the partner's fresh site": 'fresh',
  'the shared site': 'shared',
  'the foreign site': 'foreign',
};

/** `{fleetSite}`: a site by what it is to the partner (`SiteRole`). */
defineParameterType({
  name: 'fleetSite',
  regexp:
    /the partner's own site|the partner's second site|the partner's fresh site|the shared site|the foreign site/,
  transformer: (text: string): SiteRole => SITES[text] ?? 'own',
});

const TOKENS: Record<string, McpTokenRole> = {
  'a read-and-write token of a read-only account': 'readOnlyAccount',
  'a read-and-write token': 'readWrite',
  'a read-only token': 'readOnly',
};

/** `{mcpToken}`: an MCP access token by its levels (`McpTokenRole`). */
defineParameterType({
  name: 'mcpToken',
  regexp: /a read-and-write token of a read-only account|a read-and-write token|a read-only token/,
  transformer: (text: string): McpTokenRole => TOKENS[text] ?? 'readOnly',
});

/** `{fleetSchema}`: a wire shape of schemas/fleet/ (`FleetSchemaName`). */
defineParameterType({
  name: 'fleetSchema',
  regexp: /site list|acknowledge result|history list|error object/,
  transformer: (text: string) => text,
});

/** `{fleetEndpoint}`: one of the three REST endpoints of interface B. */
defineParameterType({
  name: 'fleetEndpoint',
  regexp: /the site list|the history of the partner's own site|an acknowledge on the partner's own site/,
  transformer: (text: string): 'sites' | 'history' | 'acknowledge' =>
    text === 'the site list' ? 'sites' : text.startsWith('the history') ? 'history' : 'acknowledge',
});

/** `{idpPassword}`: what the identity-provider account tries as password (FLEET-AUTH-IDP-ONLY). */
defineParameterType({
  name: 'idpPassword',
  regexp: /an empty password|its e-mail address as password|the partner's password/,
  transformer: (text: string) => text,
});
