import { startServer } from '../../examples/express/app.js';
import { describeExampleShop } from './shop-harness.js';

describeExampleShop('express', (options) => startServer(options));
