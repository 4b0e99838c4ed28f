//pass
//error-lines:
// Lambdas with type parameters applied where they stand: the lambda's body at the
// instantiation the indices give (Boogie 2.4.1 accepts both assertions).
procedure Apply<T>(c: T, d: T)
{
  assert (forall<U> u: U :: (lambda<B> b: B, s: U :: b == c && s == u)[c, u]);
  assert (lambda<V> v: V :: (lambda<B> b: B, s: V :: b == c && s == v)[v, v])[c];
}
