import { type CliCommand, CliUsageError } from '../io.js';

// Placeholder until the command lands; replaced by its issue's work.
export const docsCommand: CliCommand = async () => {
  throw new CliUsageError('the "docs" command is not available yet');
};
