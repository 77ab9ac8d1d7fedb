import { type CliCommand, CliUsageError } from '../io.js';

// Placeholder until the command lands; replaced by its issue's work.
export const doctorCommand: CliCommand = async () => {
  throw new CliUsageError('the "doctor" command is not available yet');
};
