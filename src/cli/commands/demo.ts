import { type CliCommand, CliUsageError } from '../io.js';

// Placeholder until the command lands; replaced by its issue's work.
export const demoCommand: CliCommand = async () => {
  throw new CliUsageError('the "demo" command is not available yet');
};
