// Loaded first by cucumber.mjs: lets Cucumber import the TypeScript step definitions through tsx
// (Cucumber's own `loader: ['tsx']` option does not work with this Node/tsx combination).
import { register } from 'tsx/esm/api';

register();
