import { describeValue } from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import { isCountryCode } from './number-format.ts';
import { ProviderConfigError, validateProviders } from './provider-validation.ts';

/**
 * Value rules for the `resolver` part of a state overlay (`PATCH /state`, scenario files), in
 * the form of `FIELD_RULES` of simulators/pbx/control/state-overlay-check.ts: providers are
 * checked against their schema, and the search log and the caller-ID result can only be
 * cleared, since they record what resolutions did.
 */
export const RESOLVER_OVERLAY_RULES: Record<string, (value: unknown, field: string) => unknown> = {
  'resolver.countryCode': (value, field) => {
    if (typeof value !== 'string' || !isCountryCode(value))
      throw new ControlInputError(
        `${field} must be 1 to 3 digits without a leading zero, got ${describeValue(value)}`,
      );
  },
  'resolver.providers': (value, field) => {
    try {
      validateProviders(value, field);
    } catch (error) {
      if (error instanceof ProviderConfigError) throw new ControlInputError(error.message);
      throw error;
    }
  },
  'resolver.addressBook': (value, field) => {
    const ok =
      Array.isArray(value) &&
      value.every(
        (e) =>
          e !== null &&
          typeof e === 'object' &&
          ['number', 'firstName', 'lastName', 'company', 'source'].every(
            (k) => typeof (e as Record<string, unknown>)[k] === 'string',
          ) &&
          Object.keys(e).length === 5,
      );
    if (!ok)
      throw new ControlInputError(
        `${field} must be an array of {number, firstName, lastName, company, source} strings`,
      );
  },
  'resolver.searchLog': (value, field) => {
    if (!Array.isArray(value) || value.length > 0)
      throw new ControlInputError(`${field} can only be cleared ([])`);
  },
  'resolver.callerId': (value, field) => {
    if (value !== null) throw new ControlInputError(`${field} can only be cleared (null)`);
  },
};
