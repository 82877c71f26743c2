// Entry for `npm run dev` (tsx watch): the same composition root as the built `feeder` command.
import { main } from './main.js';

await main();
