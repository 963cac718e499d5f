import type { Catalog } from '../../../src/catalog/catalog.ts';

/** A small catalog covering every check kind and two interfaces. */
export function testCatalog(): Catalog {
  return {
    version: 1,
    fingerprint: 'sha256:0123456789ab',
    clauses: [
      { id: 'MON-A', spec: 's.md', section: 'One / A', rule: 'Rule A', check: 'black-box', property: false },
      { id: 'MON-B', spec: 's.md', section: 'One / B', rule: 'Rule B', check: 'control', property: true },
      { id: 'MON-C', spec: 's.md', section: 'One', rule: 'Rule C', check: 'black-box', property: false },
      { id: 'MON-D', spec: 's.md', section: 'One', rule: 'Rule D', check: 'black-box', property: false },
      {
        id: 'MON-INFO',
        spec: 's.md',
        section: 'One',
        rule: 'Informative',
        check: 'not-testable',
        property: false,
      },
      { id: 'XMLRPC-A', spec: 'x.md', section: 'Two', rule: 'Rule X', check: 'black-box', property: false },
    ],
    unspecified: [{ id: 'MON-UNSPEC-Z', spec: 's.md', what: 'Not shown: z' }],
  };
}
