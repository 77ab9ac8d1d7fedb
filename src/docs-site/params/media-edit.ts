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

/** One media edit modifier. */
export const mediaModifierSchema = z.discriminatedUnion('type', [flip, rotate, crop]);

/** Body of `POST /media/{id}/edit`. */
export const mediaEditSchema = z.looseObject({
  src: z.url(),
  modifiers: z.array(mediaModifierSchema).min(1).optional(),
  /** @deprecated use a rotate modifier */
  rotation: z.int().gt(0).lt(360).optional(),
  /** @deprecated use a crop modifier */
  x: percent.optional(),
  /** @deprecated use a crop modifier */
  y: percent.optional(),
  /** @deprecated use a crop modifier */
  width: percent.optional(),
  /** @deprecated use a crop modifier */
  height: percent.optional(),
  caption: z.string().optional(),
  description: z.string().optional(),
  title: z.string().optional(),
  post: z.int().min(0).optional(),
  alt_text: z.string().optional(),
});

/** Body of `POST /media/{id}/post-process`. */
export const mediaPostProcessSchema = z.strictObject({ action: z.literal('create-image-subsizes') });
