import { startServer } from '../../examples/hono/app.js';
import { describeExampleShop } from './shop-harness.js';

describeExampleShop('hono', (options) => startServer(options));
