#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The coefficient tables of src/stats/stats.c's Temme expansion (temme_d,
# zeta_k), derived in exact rationals: eta(mu) from mu - ln(1 + mu), its
# reversion mu(eta), C_0 = 1/mu - 1/eta, and C_k by the recursion
# C_k = (1/eta) C'_{k-1} + (-1)^k gamma_k C_0 / ... with the Stirling
# coefficients gamma_k (each step's pole must cancel: asserted). Prints the
# C tables to standard output. Needs mpmath (Debian: python3-mpmath).
#   python3 scripts/temme-coefficients.py > /tmp/tables.c
from fractions import Fraction as F
import mpmath as mp
K=10
N=44
K=10
# eta(mu)^2/2 = mu - ln(1+mu) = sum_{n>=2} (-1)^n mu^n / n
# eta = mu * sqrt(2*(mu-ln(1+mu))/mu^2) ; s(mu) = 2*sum (-1)^n mu^(n-2)/n
M=N+2*K+4
s=[F(2*(-1)**(n+2),(n+2)) for n in range(M)]  # s[0]=1
def mul(a,b):
    r=[F(0)]*M
    for i,x in enumerate(a):
        if x==0: continue
        for j in range(M-i):
            r[i+j]+=x*b[j]
    return r
def sqrt_series(a):
    r=[F(0)]*M; r[0]=F(1)
    for n in range(1,M):
        acc=a[n]-sum(r[i]*r[n-i] for i in range(1,n))
        r[n]=acc/2
    return r
t=sqrt_series(s)  # eta = mu * t(mu)
eta_of_mu=[F(0)]+t[:M-1]
# reversion: mu(eta) by Newton-like iterative: mu = eta / t(mu)
def compose(a,b):  # a(b(x)), b[0]=0
    r=[F(0)]*M; p=[F(0)]*M; p[0]=F(1)
    for k in range(M):
        if a[k]!=0:
            for i in range(M): r[i]+=a[k]*p[i]
        p=mul(p,b)
    return r
def inv(a):
    r=[F(0)]*M; r[0]=1/a[0]
    for n in range(1,M):
        r[n]=-sum(a[i]*r[n-i] for i in range(1,n+1))/a[0]
    return r
mu=[F(0),F(1)]+[F(0)]*(M-2)
for it in range(M):
    tm=compose(t,mu)
    new=[F(0)]+inv(tm)[:M-1]
    if new==mu: break
    mu=new
# 1/mu as Laurent: mu = eta*m(eta), 1/mu = (1/eta) * inv(m)
m=mu[1:]+[F(0)]
im=inv(m)  # 1/mu = sum im[n] eta^(n-1)
# C0 = 1/mu - 1/eta -> coefficients im[n+1] eta^n
gam=[F(1),F(1,12),F(1,288),F(-139,51840),F(-571,2488320),F(163879,209018880),F(5246819,75246796800),F(-534703531,902961561600),F(-4483131259,86684309913600),F(432261921612371,514904800886784000),F(6232523202521089,86504006548979712000),F(-25834629665134204969,13494625021640835072000)]
C=[]
c=[im[n+1] for n in range(M-1)]
C.append(c)
for k in range(1,K):
    prev=C[-1]
    # (1/eta) d/deta prev: prev = sum p_n eta^n -> sum n p_n eta^(n-2)
    pole=prev[1]+(-1)**k*gam[k]*im[0]
    assert pole==0,(k,pole)
    c=[]
    for n in range(len(prev)-2):
        c.append((n+2)*prev[n+2] + (-1)**k*gam[k]*im[n+1])
    C.append(c)
import mpmath as mp
mp.mp.dps=40
NT=[40,36,33,30,27,24,21,18,15,12]
out=["/* d[k][n]: C_k(eta) = sum_n d[k][n] eta^n (Temme's uniform expansion;",
"   derived by series reversion in exact rationals by",
"   scripts/temme-coefficients.py, which prints these tables). */",
"static const long double temme_d[TEMME_K][TEMME_N] = {"]
for k in range(10):
    vals=[mp.mpf(c.numerator)/c.denominator for c in C[k][:40]]
    out.append("    {"+", ".join(mp.nstr(v,24,strip_zeros=False,min_fixed=1,max_fixed=0)+"L" for v in vals)+"},")
out.append("};")
out.append("/* zeta(k) for k = 2..25. */")
out.append("static const long double zeta_k[24] = {"+", ".join(mp.nstr(mp.zeta(k),24,min_fixed=1,max_fixed=0)+"L" for k in range(2,26))+"};")
print("\n".join(out))
