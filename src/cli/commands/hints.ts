import { type CliCommand, CliUsageError } from '../io.js';

// Placeholder until the command lands; replaced by its issue's work.
export const hintsCommand: CliCommand = async () => {
  throw new CliUsageError('the "hints" command is not available yet');
};
