import { useLocation, useRoute } from 'preact-iso';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Api, ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { Field, Money } from '../../shared/ui';
import { availabilityText, maxQuantity, type Product } from '../availability';
import { useMarketCode, useShop } from '../context';
import { answerCurrency } from '../market';
import { Gallery } from '../components/gallery';
import { OptionPicker } from '../components/option-picker';
import { VariantChoice } from '../components/variant-choice';
import { choosesByOption, variantListLegend } from '../option-choice';
import { productPath } from '../catalog/paths';
import { setPageMeta } from '../catalog/page-meta';
import { ProductBreadcrumbs } from '../components/product-breadcrumbs';
import { NotAvailable } from '../components/not-available';
import { cartProblemMessage } from '../shopper-messages';

/**
 * The product at `/p/<handle>`, or at the older `/products/<id>` (whose address is then replaced by the handle's).
 */
function readProduct(api: Api, params: Record<string, string | undefined>): Promise<Product> {
  if (params.handle !== undefined) {
    const handle = params.handle;
    return ok(api.GET('/product/storefront/api/products/by-handle/{handle}/', { params: { path: { handle } } }));
  }
  const id = Number(params.id);
  if (!Number.isInteger(id) || id < 1) {
    return Promise.reject({ type: 'about:blank', title: 'Product not found', status: 404, code: 'product_not_found' });
  }
  return ok(api.GET('/product/storefront/api/products/{id}/', { params: { path: { id } } }));
}

export function ProductPage() {
  const { api, cart, currency: storeCurrency } = useShop();
  const market = useMarketCode();
  const { params, query } = useRoute();
  const { path, route } = useLocation();
  const [product, setProduct] = useState<Product>();
  const [loadProblem, setLoadProblem] = useState<Problem>();
  const [variantId, setVariantId] = useState<number>();
  const [quantity, setQuantity] = useState(1);
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<string>();
  const [addProblem, setAddProblem] = useState<Problem>();
  // The handle and market of the product shown: the older address replaced by the handle's is not read again.
  const shown = useRef<string>();

  useEffect(() => {
    if (params.handle !== undefined && shown.current === `${params.handle}|${market}`) return;
    readProduct(api, params)
      .then((found) => {
        shown.current = `${found.handle ?? ''}|${market}`;
        setProduct(found);
        setPageMeta(found.seo);
        const linked = Number(query.variant);
        // The older address is replaced by the handle's, the chosen variant kept.
        if (path.startsWith('/products/'))
          route(`${productPath(found)}${Number.isInteger(linked) && linked > 0 ? `?variant=${linked}` : ''}`, true);
        // The variant in the URL (?variant=), else the first that can be bought, so "Add to cart" works at once (read
        // again in another market: the one chosen stays).
        setVariantId(
          (chosen) =>
            found.variants.find((v) => v.id === chosen)?.id
            ?? found.variants.find((v) => v.id === linked)?.id
            ?? (found.variants.find((v) => v.available) ?? found.variants[0])?.id,
        );
      })
      .catch((err: unknown) => setLoadProblem(asProblem(err)));
  }, [api, params.id, params.handle, market]);

  if (loadProblem) return <NotAvailable title="Product not available" problem={loadProblem} />;
  if (product === undefined) return <p>Loading…</p>;
  const currency = answerCurrency(product, storeCurrency);
  const variant = product.variants.find((v) => v.id === variantId);
  // The URL keeps the variant chosen, so a link or a reload shows it again.
  const choose = (id: number) => {
    setVariantId(id);
    route(`${productPath(product)}?variant=${id}`, true);
  };

  const addToCart = async (event: Event) => {
    event.preventDefault();
    if (variant === undefined) return;
    setAdding(true);
    setAdded(undefined);
    setAddProblem(undefined);
    try {
      await cart.add({ variantId: variant.id, quantity });
      setAdded(`Added ${quantity} × ${product.name} (${variant.name}) to your cart.`);
    } catch (err) {
      setAddProblem(asProblem(err));
    } finally {
      setAdding(false);
    }
  };

  return (
    <>
      <ProductBreadcrumbs name={product.name} categories={product.categories} />
      <h1>{product.name}</h1>
      <Gallery images={product.images} variantImageIds={variant?.image_ids ?? []} />
      {product.description && <p>{product.description}</p>}
      <form onSubmit={addToCart} class="buy">
        {choosesByOption(product) ? (
          <OptionPicker product={product} chosen={variantId} onChoose={choose} />
        ) : (
          product.variants.length > 1 && (
            <VariantChoice
              variants={product.variants}
              legend={variantListLegend(product)}
              currency={currency}
              chosen={variantId}
              onChoose={choose}
            />
          )
        )}
        {variant && (
          <div class="price">
            <Money amount={variant.price} currency={currency} />
            {variant.compare_at_price && (
              <span class="muted">
                {' '}
                was{' '}
                <s>
                  <Money amount={variant.compare_at_price} currency={currency} />
                </s>
              </span>
            )}
            <p class={variant.available ? 'ok' : 'error'}>{availabilityText(variant)}</p>
          </div>
        )}
        <Field
          label="Quantity"
          type="number"
          min={1}
          max={variant ? Math.max(1, maxQuantity(variant)) : undefined}
          value={quantity}
          hint={
            variant?.purchase_limit_per_order ? `At most ${variant.purchase_limit_per_order} per order.` : undefined
          }
          onInput={(e) => setQuantity(Math.max(1, Math.trunc(Number(e.currentTarget.value)) || 1))}
        />
        <button type="submit" disabled={adding || variant === undefined || !variant.available}>
          Add to cart
        </button>
        {addProblem && (
          <p role="alert" class="error">
            {cartProblemMessage(addProblem)}
          </p>
        )}
        {added && (
          <p role="status" class="ok">
            {added} <a href="/cart">View cart</a>
          </p>
        )}
      </form>
    </>
  );
}
