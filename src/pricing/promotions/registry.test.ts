import { describe, expect, it } from 'vitest';
import { actionModules, conditionModules } from './registry.js';

describe('the registry of promotion rules', () => {
  it('files every condition and action module under its own kind', () => {
    for (const [type, module] of Object.entries(conditionModules)) expect(module.type).toBe(type);
    for (const [type, module] of Object.entries(actionModules)) expect(module.type).toBe(type);
    expect(Object.keys(conditionModules).sort()).toEqual(['contains_products', 'min_quantity', 'min_subtotal']);
    expect(Object.keys(actionModules).sort()).toEqual([
      'buy_x_get_y',
      'free_shipping',
      'item_fixed',
      'item_percentage',
      'order_fixed',
      'order_percentage',
      'shipping_fixed',
      'shipping_percentage',
    ]);
  });
});
