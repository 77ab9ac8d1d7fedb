import { z } from 'zod';

/** A flip modifier: `args.flip` holds booleans `horizontal` and `vertical`. */
const flip = z.strictObject({
  type: z.literal('flip'),
  args: z.strictObject({
    flip: z.strictObject({ horizontal: z.boolean(), vertical: z.boolean() }),
  }),
});
/** A rotate modifier: `args.angle` in degrees clockwise. */
const rotate = z.strictObject({
  type: z.literal('rotate'),
  args: z.strictObject({ angle: z.number().finite() }),
});
const percent = z.number().min(0).max(100);
/** A crop modifier: `left`, `top`, `width`, `height` in percent. */
const crop = z.strictObject({
  type: z.literal('crop'),
  args: z.strictObject({ left: percent, top: percent, width: percent, height: percent }),
});

const CROP = '@deprecated use a crop modifier. 0 to 100.';

export const mediaModifierSchema = z.discriminatedUnion('type', [flip, rotate, crop]).meta({
  id: 'MediaModifier',
  description: 'One media edit modifier: flip, rotate (degrees clockwise) or crop (percentages).',
});

export const mediaEditSchema = z
  .looseObject({
    src: z.url().describe('The address of the image to edit.'),
    modifiers: z.array(mediaModifierSchema).min(1).optional().describe('At least one.'),
    rotation: z
      .int()
      .gt(0)
      .lt(360)
      .optional()
      .describe('@deprecated use a rotate modifier. An integer from 1 to 359.'),
    x: percent.optional().describe(CROP),
    y: percent.optional().describe(CROP),
    width: percent.optional().describe(CROP),
    height: percent.optional().describe(CROP),
    caption: z.string().optional(),
    description: z.string().optional(),
    title: z.string().optional(),
    post: z.int().min(0).optional(),
    alt_text: z.string().optional(),
  })
  .meta({ id: 'MediaEditBody', description: 'Body of `POST /media/{id}/edit`.' });

export const mediaPostProcessSchema = z
  .strictObject({ action: z.literal('create-image-subsizes') })
  .meta({ id: 'MediaPostProcessBody', description: 'Body of `POST /media/{id}/post-process`.' });
