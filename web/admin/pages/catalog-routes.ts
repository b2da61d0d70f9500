// The dashboard's catalog, tax, shipping, markets, promotions and returns pages, each loaded when first opened
// (preact-iso `lazy`), so the dashboard's first load stays small.
import { lazy } from 'preact-iso';

export const ProductList = lazy(() => import('./products/product-list').then((m) => m.ProductList));
export const ProductPage = lazy(() => import('./products/product-page').then((m) => m.ProductPage));
export const TaxPage = lazy(() => import('./tax/tax-page').then((m) => m.TaxPage));
export const ShippingPage = lazy(() => import('./shipping/shipping-page').then((m) => m.ShippingPage));
export const PromotionList = lazy(() => import('./promotions/promotion-list').then((m) => m.PromotionList));
export const NewPromotion = lazy(() => import('./promotions/promotion-new').then((m) => m.NewPromotion));
export const PromotionPage = lazy(() => import('./promotions/promotion-page').then((m) => m.PromotionPage));
export const MarketsPage = lazy(() => import('./markets/markets-page').then((m) => m.MarketsPage));
export const ReturnList = lazy(() => import('./returns/return-list').then((m) => m.ReturnList));
export const ReturnReasons = lazy(() => import('./returns/return-reasons').then((m) => m.ReturnReasons));
export const CategoriesPage = lazy(() => import('./navigation/categories-page').then((m) => m.CategoriesPage));
export const CollectionsPage = lazy(() => import('./navigation/collections-page').then((m) => m.CollectionsPage));
