import { startServer } from '../../examples/fastify/app.js';
import { describeExampleShop } from './shop-harness.js';

describeExampleShop('fastify', (options) => startServer(options));
