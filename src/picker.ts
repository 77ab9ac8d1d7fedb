export type { PickerModuleHandlerOptions } from './picker/serve.js';
export { pickerModuleHandler, pickerScript } from './picker/serve.js';
