/**
 * The one registry of error codes: each stable machine `code` with its HTTP status and title.
 * Domain code throws `new DomainError(code, ...)`; src/http/error-handler.ts turns it into
 * problem+json (RFC 9457). Add a code here before using it anywhere else.
 */
export const errorCodes = {
  // 400
  malformed_json: { status: 400, title: 'Malformed JSON body' },
  bad_request: { status: 400, title: 'Bad request' },
  invalid_cart_token: { status: 400, title: 'Malformed cart token' },
  invalid_signature: { status: 400, title: 'Webhook signature missing or invalid' },
  // 400, 408, 414, 431: the request could not be read (the HTTP parser or the router refused it)
  invalid_url_encoding: { status: 400, title: 'Malformed percent-encoding in the URL' },
  invalid_content_length: { status: 400, title: 'Invalid Content-Length' },
  invalid_transfer_encoding: { status: 400, title: 'Invalid Transfer-Encoding' },
  invalid_chunked_encoding: { status: 400, title: 'Malformed chunked body' },
  incomplete_request: { status: 400, title: 'Request ended before it was complete' },
  invalid_header: { status: 400, title: 'Invalid header' },
  malformed_request: { status: 400, title: 'Malformed HTTP request' },
  missing_host_header: { status: 400, title: 'Host header missing' },
  request_timeout: { status: 408, title: 'Request not received in time' },
  uri_too_long: { status: 414, title: 'Path parameter too long' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  // 401
  unauthorized: { status: 401, title: 'Authentication required' },
  invalid_token: { status: 401, title: 'Invalid or expired token' },
  invalid_credentials: { status: 401, title: 'Invalid email or password' },
  // 403
  forbidden: { status: 403, title: 'Not allowed' },
  // 404
  not_found: { status: 404, title: 'Not found' },
  product_not_found: { status: 404, title: 'Product not found' },
  variant_not_found: { status: 404, title: 'Product variant not found' },
  cart_not_found: { status: 404, title: 'Cart not found' },
  cart_item_not_found: { status: 404, title: 'Item not in cart' },
  tax_class_not_found: { status: 404, title: 'Tax class not found' },
  tax_rate_not_found: { status: 404, title: 'Tax rate not found' },
  shipping_method_not_found: { status: 404, title: 'Shipping method not found' },
  shipping_rate_not_found: { status: 404, title: 'Shipping rate not found' },
  promo_code_not_found: { status: 404, title: 'Promo code not found' },
  promotion_not_found: { status: 404, title: 'Promotion not found' },
  order_not_found: { status: 404, title: 'Order not found' },
  payment_plugin_not_found: { status: 404, title: 'Payment plugin not found' },
  payment_not_found: { status: 404, title: 'Payment not found' },
  event_not_found: { status: 404, title: 'Event not found' },
  order_link_invalid: { status: 404, title: 'Order link not valid' },
  route_not_found: { status: 404, title: 'No such route' },
  webhook_endpoint_not_found: { status: 404, title: 'Webhook endpoint not found' },
  webhook_delivery_not_found: { status: 404, title: 'Webhook delivery not found' },
  fulfillment_not_found: { status: 404, title: 'Fulfillment not found' },
  return_not_found: { status: 404, title: 'Return not found' },
  return_reason_not_found: { status: 404, title: 'Return reason not found' },
  market_not_found: { status: 404, title: 'Market not found' },
  category_not_found: { status: 404, title: 'Category not found' },
  collection_not_found: { status: 404, title: 'Collection not found' },
  media_not_found: { status: 404, title: 'Image not found' },
  // 409
  email_taken: { status: 409, title: 'Email already registered' },
  conflict: { status: 409, title: 'Conflict' },
  total_changed: { status: 409, title: 'The total is not the one expected' },
  alias_taken: { status: 409, title: 'Variant alias already in use' },
  sku_taken: { status: 409, title: 'SKU already in use' },
  insufficient_stock: { status: 409, title: 'Not enough stock' },
  tax_class_taken: { status: 409, title: 'Tax class name already in use' },
  tax_rate_exists: { status: 409, title: 'A rate for this class and place exists' },
  promo_code_taken: { status: 409, title: 'Promo code already exists' },
  promotion_archived: { status: 409, title: 'Promotion archived' },
  invalid_transition: { status: 409, title: 'Status cannot change that way' },
  order_already_paid: { status: 409, title: 'Nothing is due on this order' },
  order_not_payable: { status: 409, title: 'Order cannot be paid' },
  order_not_editable: { status: 409, title: 'Order cannot be edited' },
  payment_in_progress: { status: 409, title: 'A payment start for this order is in progress' },
  webhook_endpoint_inactive: { status: 409, title: 'Webhook endpoint switched off' },
  refund_required: { status: 409, title: 'Money was paid for this order: refund it to cancel' },
  operation_not_supported: { status: 409, title: 'The payment plugin cannot do that' },
  operation_failed: { status: 409, title: 'That payment operation failed' },
  order_not_fulfillable: { status: 409, title: 'Order cannot be fulfilled in its status' },
  fulfillment_exceeds_fulfillable: { status: 409, title: 'More units than can still be fulfilled' },
  nothing_to_fulfill: { status: 409, title: 'Every unit of this order is fulfilled already' },
  nothing_to_return: { status: 409, title: 'Nothing of this order has shipped' },
  return_exceeds_returnable: { status: 409, title: 'More units than can still be returned' },
  return_reason_taken: { status: 409, title: 'Return reason code already in use' },
  market_code_taken: { status: 409, title: 'Market code already in use' },
  country_in_another_market: { status: 409, title: 'A country listed belongs to another market' },
  default_market_required: { status: 409, title: 'The default market cannot be deleted' },
  market_has_orders: { status: 409, title: 'The market has orders' },
  handle_taken: { status: 409, title: 'Handle already in use' },
  category_has_children: { status: 409, title: 'The category has subcategories' },
  variant_combination_taken: { status: 409, title: 'Another variant has this combination of option values' },
  // 410
  order_link_expired: { status: 410, title: 'Order link expired' },
  // 413, 415
  payload_too_large: { status: 413, title: 'Request body too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported content type' },
  image_type_not_accepted: { status: 415, title: 'Not an image of an accepted type (JPEG, PNG, WebP, AVIF, GIF)' },
  // 422
  validation_error: { status: 422, title: 'Validation failed' },
  address_limit_reached: { status: 422, title: 'Too many stored addresses' },
  cart_full: { status: 422, title: 'Too many lines in the cart' },
  purchase_limit_exceeded: { status: 422, title: 'Over the purchase limit per order' },
  promo_code_invalid: { status: 422, title: 'Promo code cannot be used' },
  address_required: { status: 422, title: 'A delivery address is required' },
  shipping_unavailable: { status: 422, title: 'No shipping rate for this address' },
  unknown_variant: { status: 422, title: 'Unknown product variant' },
  idempotency_key_reused: { status: 422, title: 'Idempotency-Key reused with another request' },
  email_required: { status: 422, title: 'A guest order needs an email' },
  amount_too_large: { status: 422, title: 'Amount too large' },
  refund_exceeds_refundable: { status: 422, title: 'Refund larger than what can be refunded' },
  capture_exceeds_capturable: { status: 422, title: 'Capture larger than what is authorized' },
  amount_not_chargeable: { status: 422, title: 'The payment gateway cannot take this amount exactly' },
  variant_unavailable: { status: 422, title: 'Product variant cannot be bought' },
  unknown_order_line: { status: 422, title: 'No such line in this order' },
  unknown_return_reason: { status: 422, title: 'Not one of the return reasons offered' },
  unknown_market: { status: 422, title: 'No such market in this store' },
  currency_mismatch: { status: 422, title: "Not the market's currency" },
  not_offered_in_market: { status: 422, title: 'Not offered in this market' },
  category_cycle: { status: 422, title: 'A category cannot be under itself' },
  image_too_many_pixels: { status: 422, title: 'The image has more pixels than accepted' },
  invalid_image: { status: 422, title: 'The image cannot be read' },
  // 429
  rate_limited: { status: 429, title: 'Too many requests' },
  // 5xx
  internal_error: { status: 500, title: 'Internal server error' },
  payment_gateway_error: { status: 502, title: 'The payment gateway refused or did not answer' },
  database_unavailable: { status: 503, title: 'Database unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCodes;

/** One field-level problem, `field` in the request's own notation: `variants[0].quantity`. */
export interface FieldError {
  field: string;
  message: string;
}

export interface DomainErrorOptions {
  detail?: string;
  errors?: FieldError[];
  /** Extra members added to the problem document (e.g. `available` for insufficient stock). */
  extra?: Record<string, unknown>;
  /** Response headers that go with the problem (e.g. Retry-After). */
  headers?: Record<string, string>;
}

/** An expected failure of a business rule; the error handler maps it to problem+json. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string | undefined;
  readonly errors: FieldError[] | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, options: DomainErrorOptions = {}) {
    super(options.detail ?? errorCodes[code].title);
    this.name = 'DomainError';
    this.code = code;
    this.status = errorCodes[code].status;
    this.detail = options.detail;
    this.errors = options.errors;
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

/** A 422 for one field, the most common shape of a validation failure found in code. */
export function invalidField(field: string, message: string): DomainError {
  return new DomainError('validation_error', { detail: `${field} ${message}`, errors: [{ field, message }] });
}
