//xfail: errors 2
//error-lines: 7, 12
// The twin of poly_lambda_applied.bpl: `b == c` for `b: U` and `c: T` is false for a type `U`
// other than `T`, and `d` need not be `c`.
procedure Apply<T>(c: T, d: T)
{
  assert (forall<U> u: U :: (lambda<B> b: B, s: U :: b == c && s == u)[u, u]);
}

procedure Apply2<T>(c: T, d: T)
{
  assert (lambda<V> v: V :: (lambda<B> b: B, s: V :: b == c && s == v)[v, v])[d];
}
