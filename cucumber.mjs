// Configuration for running Cucumber directly (`npx cucumber-js`, `npx cucumber-js --tags @MON-RAW-MODE`).
// `npm run conformance` / `pbx-conformance verify` run the same features through src/runner/run-suite.ts.
// Against a target file: npx cucumber-js --world-parameters '{"targetFile":"target.json"}'
export default {
  paths: ['features/**/*.feature'],
  // tsx is registered first so the TypeScript step definitions load (Cucumber's `loader: ['tsx']`
  // does not work with this Node/tsx combination).
  import: ['steps/support/register-tsx.mjs', 'steps/**/*.ts'],
  format: ['progress'],
  strict: true,
  worldParameters: {},
};
