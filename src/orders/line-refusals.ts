import { DomainError, invalidField } from '../shared/errors.js';

/**
 * The refusals of a request that names an order's lines by alias (a fulfilment, a return), the same words wherever a
 * list of lines is checked: `index` is the line's place in the request.
 */
export const lineRefusals = {
  /** 422 unknown_order_line: the order has no line by that alias. */
  unknown: (line: { index: number; alias: string }, orderAlias: string) =>
    new DomainError('unknown_order_line', {
      detail: `order ${orderAlias} has no line "${line.alias}"`,
      errors: [{ field: `lines[${line.index}].alias`, message: 'is not a line of this order' }],
    }),
  /** 422 validation_error: the request names the line a second time. */
  twice: (line: { index: number; alias: string }) =>
    invalidField(`lines[${line.index}].alias`, `names line "${line.alias}" a second time`),
};
