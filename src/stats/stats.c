/* SPDX-License-Identifier: MIT */
/* Statistics for audits: chi-square, normal and Poisson tails, the exact
   laws of fixed points, successions and inversions of uniform permutations,
   the pooled chi-square goodness of fit, the exact tail of Pearson's
   statistic over a multinomial and a bound on it for equally likely
   cells at any size. Above common/ only (pure
   computation; docs/AUDIT.md states each null distribution).

   Precision: everything is computed in long double (x87 80-bit on x86-64,
   64-bit mantissa) and rounded to double at the end. Upper tails are never
   formed as 1 - lower tail where the tail is small: Q(a, x) comes from the
   continued fraction, Temme's expansion or the small-a series exactly
   where it is below about 1/2. Every public function keeps errno (expl
   and erfcl underflow in the far tails). */
#include "common/common.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every loop below converges in far fewer terms (at most a few hundred:
   the series and continued fraction run only where a < TEMME_A or x is
   far from a); one that does not is an error, never a value. */
#define STATS_MAX_ITER 100000L

/* Temme's uniform asymptotic expansion serves a >= TEMME_A where
   |eta| <= 1 (x/a in about [0.19, 2.68]); its truncation error there is
   below 1e-20 relative (checked against mpmath). */
#define TEMME_A 100.0L
#define TEMME_K 10
#define TEMME_N 40

#define PI_L 3.141592653589793238462643383279502884L

/* d[k][n]: C_k(eta) = sum_n d[k][n] eta^n (Temme's uniform expansion;
   derived by series reversion in exact rationals by
   scripts/temme-coefficients.py, which prints these tables). */
static const long double temme_d[TEMME_K][TEMME_N] = {
    {-3.33333333333333333333333e-1L, 8.33333333333333333333333e-2L, -1.48148148148148148148148e-2L, 1.15740740740740740740741e-3L, 3.52733686067019400352734e-4L, -1.78755144032921810699588e-4L, 3.91926317852243778169704e-5L, -2.18544851067999216147364e-6L, -1.85406221071515996070180e-6L, 8.29671134095308600501624e-7L, -1.76659527368260793043601e-7L, 6.70785354340149858036940e-9L, 1.02618097842403080425740e-8L, -4.38203601845335318655297e-9L, 9.14769958223679023418249e-10L, -2.55141939949462497668780e-11L, -5.83077213255042506746409e-11L, 2.43619480206674162436941e-11L, -5.02766928011417558909055e-12L, 1.10043920319561347708374e-13L, 3.37176326240098537882770e-13L, -1.39238872241816206591937e-13L, 2.85348938070474432039669e-14L, -5.13911183424257261899065e-16L, -1.97522882943494428353962e-15L, 8.09952115670456133407116e-16L, -1.65225312163981618191515e-16L, 2.53054300974788842327061e-18L, 1.16869397385595765888231e-17L, -4.77003704982048475822168e-18L, 9.69912605905623712420710e-19L, -1.29325655380381750104433e-20L, -6.96923025318569338053055e-20L, 2.83514543217693659992320e-20L, -5.75098215900704750016267e-21L, 6.79295378348891456461497e-23L, 4.18212542611133585780797e-22L, -1.69715396200476037321951e-22L, 3.43621593839431988296043e-23L, -3.64399577962802101196940e-25L},
    {-1.85185185185185185185185e-3L, -3.47222222222222222222222e-3L, 2.64550264550264550264550e-3L, -9.90226337448559670781893e-4L, 2.05761316872427983539095e-4L, -4.01877572016460905349794e-7L, -1.80985503344899778370286e-5L, 7.64916091608111008463742e-6L, -1.61209008945634460037752e-6L, 4.64712780280743434226135e-9L, 1.37863344691572095931188e-7L, -5.75254560351770496402195e-8L, 1.19516285997781473243077e-8L, -1.75432417197476476237548e-11L, -1.00915437106004126274578e-9L, 4.16279299184258263623372e-10L, -8.56390702649298063807432e-11L, 6.06721510160475861512702e-14L, 7.16249896481148539007961e-12L, -2.93318664377143711740637e-12L, 5.99669636568368872330375e-13L, -2.16717865273233141017100e-16L, -4.97833997236926164052816e-14L, 2.02916288237134247736695e-14L, -4.13125571381061004935108e-15L, 8.28651623988309644380189e-19L, 3.41003088693333279336339e-16L, -1.38541953028939715357035e-16L, 2.81234665322887466568860e-17L, -3.40644419414302880526779e-21L, -2.31097973151155719113817e-18L, 9.36675706413225592558858e-19L, -1.89725701528584870521755e-19L, 1.49126307403395976792412e-23L, 1.55349000472513963797889e-20L, -6.28513045423718747638268e-21L, 1.27091101137224709004323e-21L, -6.86338571762788365181003e-26L, -1.03764939825132617604383e-22L, 4.19211965048916500116931e-23L},
    {4.13359788359788359788360e-3L, -2.68132716049382716049383e-3L, 7.71604938271604938271605e-4L, 2.00938786008230452674897e-6L, -1.07366532263651605215391e-4L, 5.29234488291201254164217e-5L, -1.27606351886187277133779e-5L, 3.42357873409613807419020e-8L, 1.37219573090629332055944e-6L, -6.29899213838005502290672e-7L, 1.42806142060642417915846e-7L, -2.04770984219908660149196e-10L, -1.40925299108675210532930e-8L, 6.22897408492202203356394e-9L, -1.36704883966171134992724e-9L, 9.42835615901467819547711e-13L, 1.28722524000893180595479e-10L, -5.56459561343633211465415e-11L, 1.19759355463669810035898e-11L, -4.16897822518386350403837e-15L, -1.09406404278845944099299e-12L, 4.66223994639013574632620e-13L, -9.90510576390690597844122e-14L, 1.89318767683735145056885e-17L, 8.85922187259112726176031e-15L, -3.73782039804640545306560e-15L, 7.86883363903515525774088e-16L, -9.00002739574121116608541e-20L, -6.92888122934767172043227e-17L, 2.90203842701647833528030e-17L, -6.06785469681087688547248e-18L, 4.47212072979685282406475e-22L, 5.27944614444978529225999e-19L, -2.19881123348573195819230e-19L, 4.57328277213487874377362e-20L, -2.30358626470672963989836e-24L, -3.94161558647097303290481e-21L, 1.63433737412063380865978e-21L, -3.38496214687294038128731e-22L, 1.21970726764096120482400e-26L},
    {6.49434156378600823045267e-4L, 2.29472093621399176954733e-4L, -4.69189494395255712128140e-4L, 2.67720632062838852962310e-4L, -7.56180167188397641072538e-5L, -2.39650511386729665193314e-7L, 1.10826541153473023614770e-5L, -5.67495282699159656749963e-6L, 1.42309007324358839145519e-6L, -2.78610802915281422405802e-11L, -1.69584040919302772898642e-7L, 8.09946490538808236335279e-8L, -1.91111684859736540606728e-8L, 2.39286204398081179686414e-12L, 2.06201318154887984369926e-9L, -9.46049666185513217375418e-10L, 2.15410497757749078380130e-10L, -1.38882333681390304603425e-14L, -2.18947616819639394064123e-11L, 9.79099895117168512568263e-12L, -2.17821918801809621153859e-12L, 6.20881957340790142581664e-17L, 2.12697836327973697696703e-13L, -9.34468879151743333127397e-14L, 2.04536712267828493249216e-14L, -2.58260790403495021332468e-19L, -1.94052976733445443675438e-15L, 8.41597929048481552040138e-16L, -1.82004304395382252143923e-16L, 1.07354436412473099625170e-21L, 1.68968283152528330296769e-17L, -7.25611174694214747025848e-18L, 1.55472927466220275216932e-18L, -4.60599475227523890313156e-24L, -1.41913581377617490210856e-19L, 6.04706649837782474017243e-20L, -1.28617347934678110343774e-20L, 2.06233329936675938830738e-26L, 1.15816640884630603632283e-21L, -4.90410908506800339468271e-22L},
    {-8.61888290916711698604703e-4L, 7.84039221720066627474035e-4L, -2.99072480303190179733390e-4L, -1.46384525788434181781233e-6L, 6.64149821546512218665854e-5L, -3.96836504717943466443124e-5L, 1.13757269706784190980552e-5L, 2.50749722623753280165222e-10L, -1.69541495365583060147164e-6L, 8.90750753220530968882898e-7L, -2.29293483400080487057216e-7L, 2.95679413754404904696573e-11L, 2.88658297427087836297341e-8L, -1.41897394378032193894774e-8L, 3.44635804994648970659528e-9L, -2.30245171745280671320193e-13L, -3.94092330280464052750698e-10L, 1.86023389685045019134259e-10L, -4.35632300505661804380678e-11L, 1.27860010162962312660550e-15L, 4.67927502665791946200383e-12L, -2.14924647061348285410535e-12L, 4.90881561480965216323650e-13L, -6.33859148489156032604561e-18L, -5.04533206908009435733729e-14L, 2.27229582229012859238385e-14L, -5.09608260847240154193571e-15L, 3.05520975571713541889749e-20L, 5.06902167631055156496728e-16L, -2.24938369564818097629004e-16L, 4.97511142213141811188894e-17L, -1.49030163935173307088545e-22L, -4.82504577440042338601990e-18L, 2.11646676856465823117809e-18L, -4.63021132874924790576016e-19L, 7.47475387499994914097811e-25L, 4.40102275680518976748286e-20L, -1.91259864868179273307712e-20L, 4.14739220637672771392542e-21L, -3.86398473111660847725216e-27L},
    {-3.36798553366358150308768e-4L, -6.97281375836585777429399e-5L, 2.77275324495939207873364e-4L, -1.99325705161888477003360e-4L, 6.79778047793720783881640e-5L, 1.41906292064396701483393e-7L, -1.35940481897686932784584e-5L, 8.01847025633420153971926e-6L, -2.29148117650809517038049e-6L, -3.25247355129845395166230e-10L, 3.46528464910852649559195e-7L, -1.84471871911713432765322e-7L, 4.82409670378941807563763e-8L, -1.79894667217435153025754e-14L, -6.30619450001352343517517e-9L, 3.16241762877456793773762e-9L, -7.84092425369742929000839e-10L, 5.19267916525404072377622e-15L, 9.35894424230678358459591e-11L, -4.51342621616327823101171e-11L, 1.07991299931168270409836e-11L, -3.66188671268525201090793e-17L, -1.21090206905515498798738e-12L, 5.68074358499056433289031e-13L, -1.32496599163408290878380e-13L, 1.89872407642840755204851e-19L, 1.41933902367947018851139e-14L, -6.52321470142469672313054e-15L, 1.49252426362028852399731e-15L, -8.80038945873236968675956e-22L, -1.54402225230338219079551e-16L, 6.98434135022723409160824e-17L, -1.57426638762488059230452e-17L, 3.93298638142774883626105e-24L, 1.58437270144544439016781e-18L, -7.07661553271685287108839e-19L, 1.57600575947279230725788e-19L, -1.76318773626137455092687e-26L, -1.55117914648155885592182e-20L, 6.85706989477330885317688e-21L},
    {5.31307936463992223165749e-4L, -5.92166437353693882864836e-4L, 2.70878209671804482771279e-4L, 7.90235323266032787212033e-7L, -8.15396936756196875092890e-5L, 5.61168275310624965003776e-5L, -1.83291165828433755673260e-5L, -3.07961345060330478256414e-9L, 3.46515536880360908673729e-6L, -2.02913273960586037269527e-6L, 5.78879286314900370889998e-7L, 2.33863067382665698933481e-13L, -8.82860074633048352505085e-8L, 4.74359588804081278032151e-8L, -1.25454150207103824457131e-8L, 8.64964885801029247134668e-14L, 1.68460589792640627084358e-9L, -8.57549282357759472855861e-10L, 2.15982249292321251884759e-10L, -7.61323052047615386834778e-16L, -2.66398220085361437135816e-11L, 1.30657005366110572948280e-11L, -3.17991639023679766818991e-12L, 4.71097612136743147023674e-18L, 3.69028008427634670964284e-13L, -1.76126740462014253879613e-13L, 4.17906678605147797988772e-14L, -2.53446793791788058581774e-20L, -4.63206594200160455017756e-15L, 2.16514548596464287936693e-15L, -5.03765176409762160825296e-16L, 1.28886786877969704209758e-22L, 5.38686669896306498024283e-17L, -2.47681523876148774036634e-17L, 5.67362033309677708171912e-18L, -6.47642862256563092676069e-25L, -5.89448046501810654849492e-19L, 2.67425714062220548941979e-19L, -6.04850856470573879622995e-20L, 3.29229418087525477563493e-27L},
    {3.44367606892377671254280e-4L, 5.17179090826059219337058e-5L, -3.34931610811422363116635e-4L, 2.81269515476323702273722e-4L, -1.09765822446847310235397e-4L, -1.27410090954844853794580e-7L, 2.77444515115636441570715e-5L, -1.82634888057113326614324e-5L, 5.78769494973505239894178e-6L, 4.93875893393627039981813e-10L, -1.05953670140260427338099e-6L, 6.16671437611040747858836e-7L, -1.75629733590604619378670e-7L, -1.29744732870154387070200e-12L, 2.69542360628896598368920e-8L, -1.45783529087312709768807e-8L, 3.88764595938617499807196e-9L, -3.88100225101941212553712e-17L, -5.32799417387728672093813e-10L, 2.74379776433148451259794e-10L, -6.99579609207056790942163e-11L, 2.58998638748684809801132e-17L, 8.85668909966963808841014e-12L, -4.40316881587131095155344e-12L, 1.08655619470916538997277e-12L, -2.04679884474166774760229e-19L, -1.29697944216929392201909e-13L, 6.27892205914772821543419e-14L, -1.51129483716793962746238e-14L, 1.17083454737973995605342e-21L, 1.72379791801787317724821e-15L, -8.17349036449522214824116e-16L, 1.92903050055847919512910e-16L, -5.87872047946155528021662e-24L, -2.12201330796037999584397e-17L, 9.89475146052775272162249e-18L, -2.29843300693674932790251e-18L, 2.78997115220284060608533e-26L, 2.45475718061808421592481e-19L, -1.12899540130358937862101e-19L},
    {-6.52623918595309418922035e-4L, 8.39498720672087279993358e-4L, -4.38297098541721005061088e-4L, -6.96909145842055197136911e-7L, 1.66448466420675478373846e-4L, -1.27835176797692185853344e-4L, 4.62995326369130429061361e-5L, 4.55790986792270771162749e-9L, -1.05952711258051954718239e-5L, 6.78334290486516662273074e-6L, -2.10754766662588042469973e-6L, -1.72137314328171449993182e-11L, 3.77358774161109793380345e-7L, -2.18675067001228665578245e-7L, 6.22022880401892690577022e-8L, 6.59770382673300061341310e-16L, -9.59038649742568577133734e-9L, 5.21321449228080776588735e-9L, -1.39915895839357085552863e-9L, 5.38205899906057496390482e-16L, 1.94847142754677452652533e-10L, -1.01272875563896816518897e-10L, 2.60773471972549257646521e-11L, -5.09041869999329921644343e-18L, -3.37214644748545917919105e-12L, 1.69530891408085673865826e-12L, -4.23162545861915423047483e-13L, 3.38233274807046934808191e-20L, 5.17139369361121084647280e-14L, -2.53378198832388461962700e-14L, 6.17289755162528145411267e-15L, -1.93328930573530223374195e-22L, -7.21484521102189032486907e-16L, 3.46316299652193408283864e-16L, -8.27435879522942033692752e-17L, 1.02877615265328278829258e-24L, 9.32807726471964176454622e-18L, -4.40308205630667314600726e-18L, 1.03531988997347546344334e-18L, -5.32420417370277817169976e-27L},
    {-5.96761290192746250124390e-4L, -7.20489541602001055908572e-5L, 6.78230883766732836161951e-4L, -6.40147526026275845100046e-4L, 2.77501076343287044992375e-4L, 1.81970083804651510461687e-7L, -8.47950711706850318239733e-5L, 6.10519208250153101764709e-5L, -2.10739201834048624082975e-5L, -8.85858901412559938921725e-10L, 4.52845359538053771108976e-6L, -2.84278150225044079380273e-6L, 8.70823417786464116761231e-7L, 3.68861018717069654921450e-12L, -1.53446951907020610378664e-7L, 8.86246677879069497569134e-8L, -2.51848123018268173341157e-8L, -1.02259120982150924314192e-14L, 3.89694707581547767125510e-9L, -2.12673047922356347290970e-9L, 5.73701355280513847345291e-10L, -1.88774985016971154667720e-19L, -8.09315386946578658307800e-11L, 4.23827232834491994901990e-11L, -1.10022245342077256539743e-11L, 2.33276077068028343824870e-19L, 1.44799037291757722132121e-12L, -7.34796778738314158980876e-13L, 1.85186916737587484530838e-13L, -1.98875684689668251401204e-21L, -2.30875054895104408610825e-14L, 1.14284378993792546975585e-14L, -2.81328193187140409836939e-15L, 1.22061557105463948796995e-23L, 3.35810786357849268618079e-16L, -1.62914036140373666510504e-16L, 3.93421554679031731197794e-17L, -6.51681047857522929684681e-26L, -4.53134757071414487799892e-18L, 2.16199273225265041987609e-18L},
};
/* zeta(k) for k = 2..25. */
static const long double zeta_k[24] = {1.64493406684822643647242L, 1.20205690315959428539974L, 1.082323233711138191516L, 1.03692775514336992633137L, 1.01734306198444913971452L, 1.0083492773819228268398L, 1.00407735619794433937869L, 1.00200839282608221441785L, 1.00099457512781808533715L, 1.0004941886041194645587L, 1.00024608655330804829864L, 1.00012271334757848914675L, 1.00006124813505870482926L, 1.00003058823630702049355L, 1.00001528225940865187173L, 1.00000763719763789976227L, 1.00000381729326499983986L, 1.00000190821271655393893L, 1.00000095396203387279611L, 1.00000047693298678780646L, 1.00000023845050272773299L, 1.00000011921992596531107L, 1.00000005960818905125948L, 1.00000002980350351465228L};

static int bad(double v)
{
    return isnan(v) || isinf(v);
}

/* lam - 1 - ln(lam) >= 0 for lam = x / a > 0, mu = lam - 1 given exactly
   (near lam = 1 the direct formula would cancel). */
static long double lam_m1_log(long double lam, long double mu)
{
    if (fabsl(mu) < 0.5L) {
        long double s = 0, pw = mu * mu; /* sum_{n>=2} (-mu)^n / n */
        for (int n = 2; n < 200; n++) {
            long double t = pw / n;
            s += (n & 1) ? -t : t;
            if (fabsl(t) <= 1e-22L * s)
                break;
            pw *= mu;
        }
        return s;
    }
    return lam - 1 - logl(lam);
}

/* Gamma*(a) = Gamma(a) / (sqrt(2 pi / a) (a/e)^a), a >= 10: Stirling's
   series, 11 terms (the next is below 1e-21). */
static long double gamma_star(long double a)
{
    static const long double c[] = {
        1.0L / 12,         -1.0L / 360,   1.0L / 1260, -1.0L / 1680,
        1.0L / 1188,       -691.0L / 360360, 1.0L / 156,
        -3617.0L / 122400, 43867.0L / 244188, -174611.0L / 125400,
        77683.0L / 5796,
    };
    long double ia = 1 / a, ia2 = ia * ia, s = 0;
    for (int i = (int)(sizeof c / sizeof c[0]) - 1; i >= 0; i--)
        s = s * ia2 + c[i];
    return expl(s * ia);
}

/* x^a e^-x / Gamma(a): the common prefactor of P and Q. For a >= 10 as
   e^(-a (lam - 1 - ln lam)) sqrt(a / 2 pi) / Gamma*(a), which does not
   cancel (a ln x - x - lgamma(a) loses about log10(a ln a) digits). */
static long double gamma_prefactor(long double a, long double x)
{
    if (a < 10)
        return expl(a * logl(x) - x) / tgammal(a);
    long double lam = x / a, mu = (x - a) / a;
    return expl(-a * lam_m1_log(lam, mu)) * sqrtl(a / (2 * PI_L)) /
           gamma_star(a);
}

/* P(a, x) by the series sum x^n / (a (a+1) ... (a+n)), for x < a + 1
   (or x < 0.19 a). */
static int gamma_p_series(long double a, long double x, long double *p)
{
    long double term = 1.0L / a, sum = term;
    for (long n = 1;; n++) {
        if (n >= STATS_MAX_ITER)
            return FSH_EINVAL;
        term *= x / (a + (long double)n);
        sum += term;
        if (term < sum * 1e-21L)
            break;
    }
    *p = sum * gamma_prefactor(a, x);
    return FSH_OK;
}

/* Q(a, x) by the continued fraction (modified Lentz), for x >= a + 1 (or
   x > 2.68 a). */
static int gamma_q_cf(long double a, long double x, long double *q)
{
    long double pre = gamma_prefactor(a, x);
    if (pre == 0) { /* Q <= pre / (x + 1 - a): below the long double range */
        *q = 0;
        return FSH_OK;
    }
    const long double tiny = 1e-4000L;
    long double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (long i = 1;; i++) {
        if (i >= STATS_MAX_ITER)
            return FSH_EINVAL;
        long double an = -(long double)i * ((long double)i - a);
        b += 2;
        d = an * d + b;
        if (fabsl(d) < tiny)
            d = tiny;
        c = b + an / c;
        if (fabsl(c) < tiny)
            c = tiny;
        d = 1 / d;
        long double del = d * c;
        h *= del;
        if (fabsl(del - 1) < 1e-20L)
            break;
    }
    *q = pre * h;
    return FSH_OK;
}

/* ln Gamma(1 + a) for 0 < a < 1, accurate relative to a (lgamma(1 + a)
   loses a when 1 + a rounds). */
static long double lngamma1p(long double a)
{
    if (a >= 0.1L)
        return logl(tgammal(1 + a));
    /* -gamma a + sum_{k>=2} (-1)^k zeta(k) a^k / k */
    long double s = 0, pw = -a;
    for (int k = 2; k < 26; k++) {
        pw *= -a;
        s += zeta_k[k - 2] * pw / k;
    }
    return s - 0.5772156649015328606065120900824024L * a;
}

/* Q(a, x) for a < 1, x < a + 1, directly (1 - P cancels when a is small):
   Q = 1 - x^a / Gamma(1+a) - (x^a / Gamma(1+a)) a sum_{n>=1} (-x)^n /
   (n! (a+n)). */
static long double gamma_q_small_a(long double a, long double x)
{
    long double u = a * logl(x) - lngamma1p(a);
    long double t = 1, s = 0;
    for (int n = 1; n < 200; n++) {
        t *= -x / n;
        long double d = t / (a + n);
        s += d;
        if (fabsl(d) <= 1e-22L * fabsl(s))
            break;
    }
    return -expm1l(u) - expl(u) * a * s;
}

/* Temme's uniform expansion (Temme 1979; DiDonato & Morris 1986, Gil,
   Segura & Temme 2012): with lam = x/a, eta = sign(lam - 1)
   sqrt(2 (lam - 1 - ln lam)),
   Q(a, x) = erfc(eta sqrt(a/2)) / 2 + R, P(a, x) = erfc(-eta sqrt(a/2)) / 2
   - R, R = e^(-a eta^2 / 2) / sqrt(2 pi a) sum_k C_k(eta) a^-k. The tail
   on the side of x (Q for x >= a, P for x < a) is formed directly. */
static void gamma_temme(long double a, long double lm, long double eta,
                        long double *p, long double *q)
{
    long double ia = 1 / a, s = 0;
    for (int k = TEMME_K - 1; k >= 0; k--) {
        long double c = 0;
        for (int n = TEMME_N - 1; n >= 0; n--)
            c = c * eta + temme_d[k][n];
        s = s * ia + c;
    }
    long double r = expl(-a * lm) / sqrtl(2 * PI_L * a) * s;
    long double z = eta * sqrtl(a / 2);
    if (eta >= 0) {
        *q = erfcl(z) / 2 + r;
        *p = 1 - *q;
    } else {
        *p = erfcl(-z) / 2 - r;
        *q = 1 - *p;
    }
}

/* P and Q for finite a > 0, finite x > 0. */
static int gamma_pq_l(long double a, long double x, long double *p,
                      long double *q)
{
    int rc = FSH_OK;
    long double lam = x / a, mu = (x - a) / a, lp, lq;
    if (a >= TEMME_A) {
        long double lm = lam_m1_log(lam, mu);
        if (lm <= 0.5L) { /* |eta| <= 1 */
            long double eta = sqrtl(2 * lm);
            gamma_temme(a, lm, mu < 0 ? -eta : eta, &lp, &lq);
        } else if (mu < 0) {
            rc = gamma_p_series(a, x, &lp);
            lq = 1 - lp;
        } else {
            rc = gamma_q_cf(a, x, &lq);
            lp = 1 - lq;
        }
    } else if (x < a + 1) {
        rc = gamma_p_series(a, x, &lp);
        lq = a < 1 ? gamma_q_small_a(a, x) : 1 - lp;
    } else {
        rc = gamma_q_cf(a, x, &lq);
        lp = 1 - lq;
    }
    if (rc != FSH_OK || isnan(lp) || isnan(lq))
        return FSH_EINVAL;
    *p = lp < 0 ? 0 : lp > 1 ? 1 : lp;
    *q = lq < 0 ? 0 : lq > 1 ? 1 : lq;
    return FSH_OK;
}

int fsh_stats_gamma_pq(double a, double x, double *p, double *q)
{
    if ((p == NULL && q == NULL) || bad(a) || bad(x) || !(a > 0) || x < 0)
        return FSH_EINVAL;
    int e = errno, rc = FSH_OK;
    long double lp = 0, lq = 1;
    if (x > 0)
        rc = gamma_pq_l(a, x, &lp, &lq);
    errno = e;
    if (rc != FSH_OK)
        return rc;
    if (p != NULL)
        *p = (double)lp;
    if (q != NULL)
        *q = (double)lq;
    return FSH_OK;
}

/* The chi-square upper tail at a long double x (the quantile search
   evaluates it between doubles); errno is the caller's to keep. */
static int chi2_sf_l(long double x, double df, long double *p)
{
    if (x <= 0) {
        *p = 1;
        return FSH_OK;
    }
    long double lp;
    return gamma_pq_l((long double)df / 2, x / 2, &lp, p);
}

int fsh_stats_chi2_sf(double x, double df, double *p)
{
    if (p == NULL || bad(x) || bad(df) || !(df > 0))
        return FSH_EINVAL;
    int e = errno;
    long double lp;
    int rc = chi2_sf_l(x, df, &lp);
    errno = e;
    if (rc == FSH_OK)
        *p = (double)lp;
    return rc;
}

/* Positive doubles order as their bit patterns. */
static uint64_t dbits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static double bitsd(uint64_t u)
{
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static int chi2_isf(double p, double df, double *x)
{
    double lo = 0, hi = df + 10;
    long double s;
    int rc;
    for (;;) {
        if ((rc = chi2_sf_l(hi, df, &s)) != FSH_OK)
            return rc;
        if (s < p)
            break;
        if (hi == DBL_MAX) /* the quantile is beyond the doubles */
            return FSH_EINVAL;
        lo = hi;
        hi = hi > DBL_MAX / 2 ? DBL_MAX : 2 * hi;
    }
    /* sf(lo) >= p > sf(hi): bisect the bit patterns down to adjacent
       doubles (at most 64 steps, subnormals included). */
    uint64_t ulo = dbits(lo), uhi = dbits(hi);
    while (uhi - ulo > 1) {
        uint64_t um = ulo + (uhi - ulo) / 2;
        if ((rc = chi2_sf_l(bitsd(um), df, &s)) != FSH_OK)
            return rc;
        if (s >= p)
            ulo = um;
        else
            uhi = um;
    }
    *x = bitsd(ulo);
    return FSH_OK;
}

int fsh_stats_chi2_isf(double p, double df, double *x)
{
    if (x == NULL || isnan(p) || !(p > 0 && p < 1) || bad(df) || !(df > 0))
        return FSH_EINVAL;
    int e = errno;
    int rc = chi2_isf(p, df, x);
    errno = e;
    return rc;
}

int fsh_stats_normal_sf(double z, double *p)
{
    if (p == NULL || bad(z))
        return FSH_EINVAL;
    int e = errno;
    *p = (double)(0.5L * erfcl((long double)z / sqrtl(2.0L)));
    errno = e;
    return FSH_OK;
}

int fsh_stats_poisson_sf(uint64_t k, double lambda, double *p)
{
    if (p == NULL || bad(lambda) || lambda < 0)
        return FSH_EINVAL;
    if (k == 0) {
        *p = 1;
        return FSH_OK;
    }
    if (lambda == 0) {
        *p = 0;
        return FSH_OK;
    }
    int e = errno;
    long double lp, lq;
    int rc = gamma_pq_l((long double)k, lambda, &lp, &lq);
    errno = e;
    if (rc == FSH_OK)
        *p = (double)lp;
    return rc;
}

static int fixed_points_law(size_t n, double *pmf)
{
    if (pmf == NULL || n == 0 || n == SIZE_MAX)
        return FSH_EINVAL;
    /* d_m = D(m) / m! = sum_{i <= m} (-1)^i / i!, into pmf[n - m]. */
    long double d = 0, term = 1;
    for (size_t m = 0; m <= n; m++) {
        if (m > 0)
            term /= -(long double)m;
        d += term;
        pmf[n - m] = (double)d;
    }
    /* pmf[k] = d_{n-k} / k!. */
    long double inv = 1;
    for (size_t k = 0; k <= n; k++) {
        if (k > 0)
            inv /= (long double)k;
        pmf[k] = (double)((long double)pmf[k] * inv);
    }
    return FSH_OK;
}

static int successions_law(size_t n, double *pmf)
{
    if (pmf == NULL || n == 0)
        return FSH_EINVAL;
    /* P(k) = ((n-k) d_{n-k} + d_{n-k-1}) / (n k!), d_m = D(m) / m!. */
    long double dprev = 1, d = 0, term = -1; /* d_0, d_1, (-1)^1/1! */
    for (size_t m = 1; m <= n; m++) {
        if (m > 1) {
            term /= -(long double)m;
            dprev = d;
            d += term;
        }
        pmf[n - m] = (double)((long double)m * d + dprev);
    }
    long double inv = 1 / (long double)n;
    for (size_t k = 0; k < n; k++) {
        if (k > 0)
            inv /= (long double)k;
        pmf[k] = (double)((long double)pmf[k] * inv);
    }
    return FSH_OK;
}

static int inversions_law(size_t n, double *pmf, size_t len)
{
    if (pmf == NULL || n == 0 || n > 4096 || len != n * (n - 1) / 2 + 1)
        return FSH_EINVAL;
    long double *f = malloc(len * sizeof *f), *s = malloc(len * sizeof *s);
    if (f == NULL || s == NULL) {
        free(f);
        free(s);
        return FSH_ENOMEM;
    }
    f[0] = 1; /* one item: no inversion */
    for (size_t m = 2; m <= n; m++) {
        size_t kold = (m - 1) * (m - 2) / 2, knew = m * (m - 1) / 2;
        size_t half = knew / 2;
        /* Prefix sums of the old law up to the new half (zero beyond its
           support). The window difference is taken only on the left half,
           where the law increases, so it never cancels; the right half is
           the mirror image. */
        long double acc = 0;
        for (size_t j = 0; j <= half; j++) {
            acc += j <= kold ? f[j] : 0;
            s[j] = acc;
        }
        for (size_t j = 0; j <= half; j++) {
            long double w = s[j] - (j >= m ? s[j - m] : 0);
            f[j] = w / (long double)m;
        }
        for (size_t j = half + 1; j <= knew; j++)
            f[j] = f[knew - j];
    }
    for (size_t j = 0; j < len; j++)
        pmf[j] = (double)f[j];
    free(f);
    free(s);
    return FSH_OK;
}

/* Pools obs[0..k) against prob[0..k) as fsh_stats_chi2_gof says: adjacent
   categories from the left until a group expects at least min_expected
   and more than 0, a short last group joined to the one before. Returns
   the number of groups; *x = Pearson's statistic over them; the groups'
   counts and probabilities into gobs and gprob when not NULL (k each).
   *impossible: a count in a category of probability 0. */
static size_t pool(const uint64_t *obs, const double *prob, size_t k,
                   long double total, double min_expected, long double *x,
                   uint64_t *gobs, double *gprob, int *impossible)
{
    size_t groups = 0;
    *x = 0;
    *impossible = 0;
    /* The group being filled and the last closed group (for the short
       remainder), as observed and expected counts and probability. */
    long double go = 0, ge = 0, gp = 0, lo = 0, le = 0, lp = 0;
    int have_last = 0;
    for (size_t i = 0; i < k; i++) {
        if (prob[i] == 0) {
            if (obs[i] > 0)
                *impossible = 1;
            continue;
        }
        go += (long double)obs[i];
        ge += total * prob[i];
        gp += prob[i];
        if (ge > 0 && ge >= min_expected) {
            if (have_last) {
                *x += (lo - le) * (lo - le) / le;
                if (gobs != NULL) {
                    gobs[groups] = (uint64_t)lo;
                    gprob[groups] = (double)lp;
                }
                groups++;
            }
            lo = go;
            le = ge;
            lp = gp;
            have_last = 1;
            go = ge = gp = 0;
        }
    }
    if (ge > 0) {
        if (have_last) {
            lo += go;
            le += ge;
            lp += gp;
        } else {
            lo = go;
            le = ge;
            lp = gp;
            have_last = 1;
        }
    }
    if (have_last && le > 0) {
        *x += (lo - le) * (lo - le) / le;
        if (gobs != NULL) {
            gobs[groups] = (uint64_t)lo;
            gprob[groups] = (double)lp;
        }
        groups++;
    }
    return groups;
}

static int gof_args(const uint64_t *obs, const double *prob, size_t k,
                    double min_expected, long double *total)
{
    if (obs == NULL || prob == NULL || k == 0 || isnan(min_expected) ||
        isinf(min_expected) || min_expected < 0)
        return FSH_EINVAL;
    long double psum = 0;
    *total = 0;
    for (size_t i = 0; i < k; i++) {
        if (isnan(prob[i]) || prob[i] < 0 || prob[i] > 1)
            return FSH_EINVAL;
        psum += prob[i];
        *total += (long double)obs[i];
    }
    if (fabsl(psum - 1) > 1e-9L)
        return FSH_EINVAL;
    return FSH_OK;
}

static int chi2_gof(const uint64_t *obs, const double *prob, size_t k,
                    double min_expected, double *stat, double *df, double *p)
{
    long double total, x;
    int impossible, rc = gof_args(obs, prob, k, min_expected, &total);
    if (rc != FSH_OK)
        return rc;
    size_t groups =
        pool(obs, prob, k, total, min_expected, &x, NULL, NULL, &impossible);
    double st = (double)x, dfv = groups > 1 ? (double)(groups - 1) : 0, pv = 1;
    if (impossible) {
        st = INFINITY;
        pv = 0;
    } else if (dfv > 0) {
        long double lp;
        rc = chi2_sf_l(st, dfv, &lp);
        if (rc != FSH_OK)
            return rc;
        pv = (double)lp;
    }
    if (stat != NULL)
        *stat = st;
    if (df != NULL)
        *df = dfv;
    if (p != NULL)
        *p = pv;
    return FSH_OK;
}

/* The exact upper tail of Pearson's statistic over a multinomial
   (fsh_stats_pearson_sf). The counts O_1..O_g of groups of probability
   pi_1 <= ... <= pi_g are drawn one group at a time, O_j given the counts
   m so far being binomial(total - m, pi_j / (pi_j + ... + pi_g)); the last
   group takes what is left. The state is (m, s), s the statistic so far
   in units of 1/PEARSON_GRID, each group's term (O - E)^2 / E rounded up
   to a unit, so the computed tail is at least the exact one. States
   whose s reaches L = ceil(x * GRID) leave for the tail with their mass,
   as does every count whose own term does (its binomial tail, summed
   directly). A state with s < L has sum (O - E)^2 / E < x, hence
   |m - M| < sqrt(x M) (Cauchy-Schwarz, M the expected count so far):
   the m kept are a window of that width, each group's counts one of
   width 2 sqrt(x E). */
#define PEARSON_GRID 64.0L

typedef struct pearson_plan {
    size_t g;          /* groups of positive probability */
    long double *pr;   /* their probabilities, ascending, summing to psum */
    long double psum, x, total;
    long L;            /* units of the threshold */
} pearson_plan;

static int cmp_ld(const void *a, const void *b)
{
    long double x = *(const long double *)a, y = *(const long double *)b;
    return x < y ? -1 : x > y;
}

/* The term (o - e)^2 / e in units, rounded up (and nudged up, so that a
   rounding error in the division never lowers it). */
static long pearson_units(long double o, long double e, long L)
{
    long double t = (o - e) * (o - e) / e * PEARSON_GRID;
    t = t * (1 + 1e-15L) + 1e-12L;
    return t >= (long double)L ? L : (long)ceill(t);
}

/* m window after the groups of expected count so far mm (clamped to
   0..total). */
static void pearson_rows(const pearson_plan *pl, long double mm, long *lo,
                         long *hi)
{
    long double xs = (long double)pl->L / PEARSON_GRID;
    long double r = sqrtl(xs * mm) + 2;
    long double a = floorl(mm - r), b = ceill(mm + r);
    *lo = a < 0 ? 0 : (long)a;
    *hi = b > pl->total ? (long)pl->total : (long)b;
}

/* The count window of a group of expected count e: |o - e| < sqrt(x e). */
static void pearson_counts(const pearson_plan *pl, long double e, long R,
                           long *lo, long *hi)
{
    long double xs = (long double)pl->L / PEARSON_GRID;
    long double w = sqrtl(xs * e) + 1;
    long double a = floorl(e - w), b = ceill(e + w);
    *lo = a < 0 ? 0 : (long)a;
    *hi = b > (long double)R ? R : (long)b;
}

static double pearson_work(const pearson_plan *pl)
{
    double steps = 0, rows = 1;
    long double mm = 0;
    for (size_t j = 0; j + 1 < pl->g; j++) {
        long double e = pl->total * pl->pr[j] / pl->psum;
        long olo, ohi, nlo, nhi;
        pearson_counts(pl, e, (long)pl->total, &olo, &ohi);
        double l = j + 2 == pl->g ? 1 : (double)pl->L;
        steps += rows * ((double)(ohi - olo + 1) * l + (double)pl->L + 64);
        mm += e;
        pearson_rows(pl, mm, &nlo, &nhi);
        rows = (double)(nhi - nlo + 1);
    }
    return steps;
}

/* The most memory pearson_tail holds at once, in long doubles: the
   table of the counts so far and the next one (a group's, but before the
   last two groups, whose table the closing step reads without a new
   one), the suffix sums of a row and the probabilities. */
static double pearson_cells(const pearson_plan *pl)
{
    double rows = 1, peak = (double)pl->L;
    long double mm = 0;
    for (size_t j = 0; j + 2 < pl->g; j++) {
        long nlo, nhi;
        mm += pl->total * pl->pr[j] / pl->psum;
        pearson_rows(pl, mm, &nlo, &nhi);
        double nrows = (double)(nhi - nlo + 1);
        if ((rows + nrows) * (double)pl->L > peak)
            peak = (rows + nrows) * (double)pl->L;
        rows = nrows;
    }
    return peak + (double)pl->L + 1 + (double)pl->g;
}

/* log of the binomial(R, q) probability of o. */
static long double lbinom(long R, long o, long double q)
{
    return lgammal((long double)R + 1) - lgammal((long double)o + 1) -
           lgammal((long double)(R - o) + 1) + (long double)o * logl(q) +
           (long double)(R - o) * log1pl(-q);
}

static int pearson_tail(const pearson_plan *pl, long double *out)
{
    long L = pl->L, T = (long)pl->total, mlo = 0, mhi = 0;
    long double tail = 0, rem = pl->psum, mm = 0;
    long double *cur = calloc((size_t)L, sizeof *cur),
                *suf = malloc(((size_t)L + 1) * sizeof *suf);
    if (cur == NULL || suf == NULL) {
        free(cur);
        free(suf);
        return FSH_ENOMEM;
    }
    cur[0] = 1;
    for (size_t j = 0; j + 1 < pl->g; j++) {
        long double e = pl->total * pl->pr[j] / pl->psum,
                    q = pl->pr[j] / rem;
        /* q <= 1/2: the groups come in increasing order, the largest
           last. */
        rem -= pl->pr[j];
        long nlo, nhi;
        pearson_rows(pl, mm + e, &nlo, &nhi);
        /* Before the last group, whose count is then known: no new
           states, each count closes its row's (m, s) at once. */
        int closing = j + 2 == pl->g;
        long double elast = pl->total * pl->pr[pl->g - 1] / pl->psum;
        long double *nxt =
            closing ? NULL
                    : calloc((size_t)(nhi - nlo + 1) * (size_t)L, sizeof *nxt);
        if (nxt == NULL && !closing) {
            free(cur);
            free(suf);
            return FSH_ENOMEM;
        }
        for (long m = mlo; m <= mhi; m++) {
            const long double *row = cur + (size_t)(m - mlo) * (size_t)L;
            suf[L] = 0;
            for (long s = L - 1; s >= 0; s--)
                suf[s] = suf[s + 1] + row[s];
            if (suf[0] == 0)
                continue;
            long R = T - m, olo, ohi;
            pearson_counts(pl, e, R, &olo, &ohi);
            if (olo > ohi) { /* every count leaves for the tail */
                tail += suf[0];
                continue;
            }
            /* The binomial(R, q) law over the window, from its first
               count by the ratio of successive terms; the counts outside
               it, summed outward until their terms no longer matter. */
            long double mode = floorl((long double)(R + 1) * q), away = 0;
            long double p0 = expl(lbinom(R, olo, q)), pk = p0,
                        up = q / (1 - q);
            for (long o = olo - 1; o >= 0; o--) {
                pk = pk * (long double)(o + 1) / (long double)(R - o) / up;
                away += pk;
                if ((long double)o < mode && pk <= 1e-24L * away)
                    break;
            }
            long double pw = p0;
            for (long o = olo; o <= ohi; o++) {
                if (o > olo)
                    pw = pw * (long double)(R - o + 1) / (long double)o * up;
                long c = pearson_units((long double)o, e, L);
                if (closing) {
                    c += pearson_units((long double)(R - o), elast, L);
                    tail += pw * suf[c >= L ? 0 : L - c];
                    continue;
                }
                if (c >= L) {
                    tail += pw * suf[0];
                    continue;
                }
                tail += pw * suf[L - c];
                if (m + o < nlo || m + o > nhi) {
                    /* Unreachable with s + c < L (the window): kept in
                       the tail all the same. */
                    tail += pw * (suf[0] - suf[L - c]);
                    continue;
                }
                long double *dst = nxt + (size_t)(m + o - nlo) * (size_t)L + c;
                for (long s = 0; s < L - c; s++)
                    dst[s] += pw * row[s];
            }
            pk = pw;
            for (long o = ohi + 1; o <= R; o++) {
                pk = pk * (long double)(R - o + 1) / (long double)o * up;
                away += pk;
                if ((long double)o > mode && pk <= 1e-24L * away)
                    break;
            }
            tail += away * suf[0];
        }
        free(cur);
        cur = nxt;
        mlo = nlo;
        mhi = nhi;
        mm += e;
    }
    free(cur);
    free(suf);
    *out = tail > 1 ? 1 : tail;
    return FSH_OK;
}

/* Checks the arguments and plans: *done = 1 with *p set when the answer
   needs no dynamic program. pl->pr is allocated otherwise. */
static int pearson_plan_new(uint64_t total, const double *prob, size_t k,
                            double x, pearson_plan *pl, int *done, double *p)
{
    if (prob == NULL || k == 0 || bad(x))
        return FSH_EINVAL;
    /* Counts index arrays and windows as long: 2^52 keeps them exact. */
    if (total > ((uint64_t)1 << 52))
        return FSH_EINVAL;
    long double psum = 0;
    size_t g = 0;
    for (size_t i = 0; i < k; i++) {
        if (isnan(prob[i]) || prob[i] < 0 || prob[i] > 1)
            return FSH_EINVAL;
        psum += prob[i];
        g += prob[i] > 0;
    }
    if (fabsl(psum - 1) > 1e-9L)
        return FSH_EINVAL;
    *done = 1;
    if (!(x > 0)) {
        *p = 1;
        return FSH_OK;
    }
    if (g < 2 || total == 0) {
        *p = 0; /* X = 0 */
        return FSH_OK;
    }
    long double L = ceill((long double)x * PEARSON_GRID);
    if (L > 1e9L) /* x above 1.5e7: no state array could hold it */
        return FSH_EINVAL;
    pl->pr = malloc(g * sizeof *pl->pr);
    if (pl->pr == NULL)
        return FSH_ENOMEM;
    g = 0;
    for (size_t i = 0; i < k; i++)
        if (prob[i] > 0)
            pl->pr[g++] = prob[i];
    qsort(pl->pr, g, sizeof *pl->pr, cmp_ld);
    pl->g = g;
    pl->psum = psum;
    pl->x = x;
    pl->total = (long double)total;
    pl->L = (long)L;
    *done = 0;
    return FSH_OK;
}

/* *out = measure(the plan) for these arguments, 0 when the plan needs no
   tables: fsh_stats_pearson_steps and fsh_stats_pearson_bytes. */
static int pearson_measure(uint64_t total, const double *prob, size_t k,
                           double x, double *out,
                           double (*measure)(const pearson_plan *))
{
    if (out == NULL)
        return FSH_EINVAL;
    int e = errno, done;
    double p;
    pearson_plan pl;
    int rc = pearson_plan_new(total, prob, k, x, &pl, &done, &p);
    if (rc == FSH_OK) {
        *out = done ? 0 : measure(&pl);
        if (!done)
            free(pl.pr);
    }
    errno = e;
    return rc;
}

int fsh_stats_pearson_steps(uint64_t total, const double *prob, size_t k,
                            double x, double *steps)
{
    return pearson_measure(total, prob, k, x, steps, pearson_work);
}

static double pearson_bytes_of(const pearson_plan *pl)
{
    return pearson_cells(pl) * (double)sizeof(long double);
}

int fsh_stats_pearson_bytes(uint64_t total, const double *prob, size_t k,
                            double x, double *bytes)
{
    return pearson_measure(total, prob, k, x, bytes, pearson_bytes_of);
}

int fsh_stats_pearson_sf(uint64_t total, const double *prob, size_t k,
                         double x, double *p)
{
    if (p == NULL)
        return FSH_EINVAL;
    int e = errno, done;
    pearson_plan pl;
    double v;
    int rc = pearson_plan_new(total, prob, k, x, &pl, &done, &v);
    if (rc == FSH_OK && !done) {
        long double t;
        rc = pearson_tail(&pl, &t);
        free(pl.pr);
        v = (double)t;
        /* Rounded to double upward, so the bound stays one. */
        if (rc == FSH_OK && (long double)v < t)
            v = nextafter(v, 2);
    }
    if (rc == FSH_OK)
        *p = v;
    errno = e;
    return rc;
}

/* Pearson's statistic over k equally likely cells, any size
   (fsh_stats_pearson_equal_bound). A Chernoff bound: for t >= 0 and any
   set B of outcomes, P(X >= x) <= E[e^(t X); B] e^(-t x) + P(not B).
   B = every count within [olo, ohi], P(not B) <= k (the two binomial
   tails of one count), each tail bounded by e^(-total KL) (Chernoff and
   Hoeffding). The expectation is exact: given their sum, independent
   Poisson(E) counts are multinomial, so E[e^(t X); B] =
   (w * ... * w)(total) / P(Poisson(total) = total), the k-fold
   convolution of w(o) = P(Poisson(E) = o) e^(t (o - E)^2 / E) on the box,
   read at total from a discrete Fourier transform of length n. A
   transform shorter than the convolution folds other sums onto total:
   w >= 0, so that only adds (a bound still). The rounding of the
   transform and of the powers is at most about k log2(n) ulps of the
   total mass, which EQ_ROUND allows for (the coefficient itself is
   about 1/(2.5 sd) of it, sd the tilted sum's spread, at most n / 24
   below EQ_FFT_MAX). */
#define EQ_FFT_MAX (1L << 20)
#define EQ_ROUND(k, lg) (64.0L * ((k) + 1) * ((lg) + 4) * LDBL_EPSILON + 1e-30L)

typedef struct eq_plan {
    long double lam, q, x, k, T; /* mean per cell, 1/k, threshold */
    long olo, ohi, oc;           /* box of counts, its centre */
    long double *lrho;           /* log P(o) / P(oc) over the box */
    long double *re, *im, *cs, *sn;
    long n, lg, r;               /* transform length, log2, T - k oc mod n */
    long double delta;           /* log of k P(oc) / P_T(T) */
    long double pbox;            /* the bound on P(not B) */
} eq_plan;

/* log Gamma(m + 1) - ((m + 1/2) log m - m + log(2 pi)/2): Stirling's
   remainder, m >= 1, without the cancellation of lgammal for large m. */
static long double stirling_rem(long double m)
{
    if (m >= 10)
        return logl(gamma_star(m));
    return lgammal(m + 1) - ((m + 0.5L) * logl(m) - m + 0.5L * logl(2 * PI_L));
}

/* Kullback-Leibler divergence of Bernoulli(a) from Bernoulli(q). */
static long double kl_bern(long double a, long double q)
{
    long double s = 0;
    if (a > 0)
        s += a * logl(a / q);
    if (a < 1)
        s += (1 - a) * (log1pl(-a) - log1pl(-q));
    return s;
}

/* log of k x the Chernoff bound on P(O >= o) (up) or P(O <= o), O
   binomial(T, q); -INFINITY when impossible. */
static long double eq_ltail(const eq_plan *pl, long double o, int up)
{
    if (up ? o > pl->T : o < 0)
        return -INFINITY;
    return logl(pl->k) - pl->T * kl_bern(o / pl->T, pl->q);
}

/* The FFT, forward (w-hat_j = sum w_u e^(-2 pi i j u / n)), radix 2. */
static void eq_fft(const eq_plan *pl)
{
    long double *re = pl->re, *im = pl->im;
    long n = pl->n;
    for (long i = 1, j = 0; i < n; i++) {
        long bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            long double t = re[i];
            re[i] = re[j];
            re[j] = t;
            t = im[i];
            im[i] = im[j];
            im[j] = t;
        }
    }
    for (long len = 2; len <= n; len <<= 1) {
        long half = len / 2, step = n / len;
        for (long i = 0; i < n; i += len)
            for (long j = 0; j < half; j++) {
                long double wr = pl->cs[j * step], wi = pl->sn[j * step];
                long double *ar = re + i + j, *ai = im + i + j;
                long double br = ar[half] * wr - ai[half] * wi,
                            bi = ar[half] * wi + ai[half] * wr;
                ar[half] = *ar - br;
                ai[half] = *ai - bi;
                *ar += br;
                *ai += bi;
            }
    }
}

/* log of the bound at t, without P(not B). */
static long double eq_log_bound(const eq_plan *pl, long double t)
{
    long width = pl->ohi - pl->olo + 1, n = pl->n;
    long double top = -INFINITY;
    for (long i = 0; i < width; i++) {
        long double d = (long double)(pl->olo + i) - pl->lam;
        long double v = pl->lrho[i] + t * d * d / pl->lam;
        if (v > top)
            top = v;
    }
    memset(pl->re, 0, (size_t)n * sizeof *pl->re);
    memset(pl->im, 0, (size_t)n * sizeof *pl->im);
    long double v0 = 0;
    for (long i = 0; i < width; i++) {
        long double d = (long double)(pl->olo + i) - pl->lam;
        long double v = expl(pl->lrho[i] + t * d * d / pl->lam - top);
        long u = (pl->olo + i - pl->oc) % n;
        pl->re[u < 0 ? u + n : u] += v;
        v0 += v;
    }
    eq_fft(pl);
    /* c = (1/n) sum_j Re((w-hat_j / v0)^k e^(2 pi i j r / n)); terms
       below 1e-40 of the mass are left out (at most 1e-40 in all). */
    long double c = 0, m2min = expl(-184 / pl->k) * v0 * v0;
    for (long j = 0; j < n; j++) {
        long double m2 = pl->re[j] * pl->re[j] + pl->im[j] * pl->im[j];
        if (!(m2 > m2min))
            continue;
        m2 /= v0 * v0;
        long double lm = 0.5L * pl->k * logl(m2);
        long double ph = pl->k * atan2l(pl->im[j], pl->re[j]) +
                         2 * PI_L *
                             (long double)(((int64_t)j * pl->r) % n) /
                             (long double)n;
        c += expl(lm) * cosl(ph);
    }
    c = (c > 0 ? c / (long double)n : 0) + EQ_ROUND(pl->k, pl->lg) + 1e-40L;
    return pl->delta + pl->k * (logl(v0) + top) + logl(c) - t * pl->x;
}

/* The least of eq_log_bound over t in [0, 1/2), where it is convex: a
   golden section search to within 2e-4 (which changes the bound by about
   Var(X) 2e-8 in its log, X tilted: below 1e-5). */
static long double eq_least_log_bound(const eq_plan *pl)
{
    const long double g = 0.6180339887498948482L;
    long double a = 0, b = 0.5L, c1 = b - g * (b - a), c2 = a + g * (b - a);
    long double f1 = eq_log_bound(pl, c1), f2 = eq_log_bound(pl, c2);
    for (int it = 0; it < 16; it++) {
        if (f1 <= f2) {
            b = c2;
            c2 = c1;
            f2 = f1;
            c1 = b - g * (b - a);
            f1 = eq_log_bound(pl, c1);
        } else {
            a = c1;
            c1 = c2;
            f1 = f2;
            c2 = a + g * (b - a);
            f2 = eq_log_bound(pl, c2);
        }
    }
    return fminl(f1, f2);
}

static void eq_plan_free(eq_plan *pl)
{
    free(pl->lrho);
    free(pl->re);
    free(pl->im);
    free(pl->cs);
    free(pl->sn);
}

static int eq_plan_new(uint64_t total, size_t k, double x, eq_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->T = (long double)total;
    pl->k = (long double)k;
    pl->q = 1 / pl->k;
    pl->lam = pl->T / pl->k;
    pl->x = x;
    /* P(not B) small against the limit's tail (within 1e-6 of it, and
       never below 1e-300): a smaller box lowers the bound's other part. */
    long double lim;
    if (chi2_sf_l(x, (double)k - 1, &lim) != FSH_OK)
        return FSH_EINVAL;
    long double ld = lim > 0 ? logl(lim) + logl(1e-6L) : -700;
    if (ld < -700)
        ld = -700;
    ld -= logl(2);
    long lo = (long)ceill(pl->lam), hi = (long)total;
    while (lo < hi) { /* smallest ohi with k P(O >= ohi + 1) <= delta/2 */
        long mid = lo + (hi - lo) / 2;
        if (eq_ltail(pl, (long double)mid + 1, 1) <= ld)
            hi = mid;
        else
            lo = mid + 1;
    }
    pl->ohi = lo;
    lo = 0;
    hi = (long)floorl(pl->lam);
    while (lo < hi) { /* largest olo with k P(O <= olo - 1) <= delta/2 */
        long mid = lo + (hi - lo + 1) / 2;
        if (eq_ltail(pl, (long double)mid - 1, 0) <= ld)
            lo = mid;
        else
            hi = mid - 1;
    }
    pl->olo = lo;
    pl->pbox = expl(eq_ltail(pl, (long double)pl->ohi + 1, 1)) +
               expl(eq_ltail(pl, (long double)pl->olo - 1, 0));
    pl->oc = (long)floorl(pl->lam + 0.5L);
    if (pl->oc < pl->olo)
        pl->oc = pl->olo;
    if (pl->oc > pl->ohi)
        pl->oc = pl->ohi;
    /* The transform: 16 standard deviations of the sum at the limit's
       tilt (variance E x / (k - 1) a cell: the sums folded onto total
       are 8 of them away, about 1e-14 of its mass), or the whole
       convolution. */
    long double var = pl->T * fmaxl(1, (long double)x / (pl->k - 1));
    long double want = fminl(16 * sqrtl(var) + 64,
                             pl->k * (long double)(pl->ohi - pl->olo) + 1);
    pl->n = 64;
    pl->lg = 6;
    while ((long double)pl->n < want && pl->n < EQ_FFT_MAX) {
        pl->n <<= 1;
        pl->lg++;
    }
    long double rr = fmodl(pl->T - pl->k * (long double)pl->oc,
                           (long double)pl->n);
    pl->r = (long)(rr < 0 ? rr + (long double)pl->n : rr);
    long width = pl->ohi - pl->olo + 1;
    pl->lrho = malloc((size_t)width * sizeof *pl->lrho);
    pl->re = malloc((size_t)pl->n * sizeof *pl->re);
    pl->im = malloc((size_t)pl->n * sizeof *pl->im);
    pl->cs = malloc((size_t)pl->n / 2 * sizeof *pl->cs);
    pl->sn = malloc((size_t)pl->n / 2 * sizeof *pl->sn);
    if (!pl->lrho || !pl->re || !pl->im || !pl->cs || !pl->sn) {
        eq_plan_free(pl);
        return FSH_ENOMEM;
    }
    for (long j = 0; j < pl->n / 2; j++) {
        long double a = 2 * PI_L * (long double)j / (long double)pl->n;
        pl->cs[j] = cosl(a);
        pl->sn[j] = -sinl(a);
    }
    /* log P(o)/P(oc) by the ratios of successive Poisson terms. */
    long ic = pl->oc - pl->olo;
    pl->lrho[ic] = 0;
    for (long i = ic + 1; i < width; i++)
        pl->lrho[i] = pl->lrho[i - 1] +
                      logl(pl->lam / (long double)(pl->olo + i));
    for (long i = ic; i-- > 0;)
        pl->lrho[i] = pl->lrho[i + 1] -
                      logl(pl->lam / (long double)(pl->olo + i + 1));
    /* delta = k log P_E(oc) - log P_T(T), Stirling's form, in which the
       terms of size T log T cancel exactly (docs: lgammal's would lose
       T log T ulps). */
    long double oc = (long double)pl->oc;
    if (pl->oc >= 1) {
        long double d = oc - pl->lam;
        pl->delta = pl->k * (-0.5L * logl(pl->lam) -
                             (pl->lam + d + 0.5L) * log1pl(d / pl->lam) + d -
                             0.5L * logl(2 * PI_L) - stirling_rem(oc)) +
                    0.5L * logl(pl->T) + 0.5L * logl(2 * PI_L) +
                    stirling_rem(pl->T);
    } else {
        pl->delta = pl->k * -pl->lam -
                    (-pl->T + pl->T * logl(pl->T) - lgammal(pl->T + 1));
    }
    return FSH_OK;
}

int fsh_stats_pearson_equal_bound(uint64_t total, size_t k, double x,
                                  double *p)
{
    if (p == NULL || k == 0 || bad(x) || total > ((uint64_t)1 << 52))
        return FSH_EINVAL;
    int e = errno, rc = FSH_OK;
    long double kd = (long double)k, td = (long double)total;
    if (!(x > 0)) {
        *p = 1;
    } else if (k == 1 || total == 0 || (long double)x > td * (kd - 1)) {
        *p = 0; /* X never exceeds total (k - 1) */
    } else if ((long double)x <= kd - 1) {
        *p = 1; /* at most the mean: the bound's best is 1 */
    } else {
        /* X >= x needs a cell with (O - E)^2 / E >= x / k: k times the
           two tails of one count, quick. Where that is below 1e-20 the
           transform (which would give less, at a cost growing with x) is
           skipped: such a p-value decides at any alpha. */
        eq_plan pl;
        long double one = sqrtl((long double)x * td / (kd * kd)), lam = td / kd;
        pl.T = td;
        pl.k = kd;
        pl.q = 1 / kd;
        long double v = expl(eq_ltail(&pl, ceill(lam + one), 1)) +
                        expl(eq_ltail(&pl, floorl(lam - one), 0));
        if (!(v <= 1e-20L)) {
            rc = eq_plan_new(total, k, x, &pl);
            if (rc == FSH_OK) {
                v = fminl(v, pl.pbox + expl(eq_least_log_bound(&pl)));
                eq_plan_free(&pl);
            }
        }
        /* Rounded up to a double; a bound that underflowed (the tail is
           below 1e-4900) is the least positive double. */
        double d = v >= 1 ? 1 : (double)v;
        if (d < 1 && (long double)d < v)
            d = nextafter(d, 2);
        if (rc == FSH_OK)
            *p = d > 0 ? d : nextafter(0, 1);
    }
    errno = e;
    return rc;
}

int fsh_stats_chi2_pool(const uint64_t *obs, const double *prob, size_t k,
                        double min_expected, uint64_t *gobs, double *gprob,
                        size_t *groups)
{
    long double total, x;
    int impossible, rc;
    if (gobs == NULL || gprob == NULL || groups == NULL)
        return FSH_EINVAL;
    int e = errno;
    rc = gof_args(obs, prob, k, min_expected, &total);
    if (rc == FSH_OK) {
        size_t g = pool(obs, prob, k, total, min_expected, &x, gobs, gprob,
                        &impossible);
        if (impossible)
            rc = FSH_EINVAL;
        else
            *groups = g;
    }
    errno = e;
    return rc;
}

int fsh_stats_fixed_points_law(size_t n, double *pmf)
{
    int e = errno, rc = fixed_points_law(n, pmf);
    errno = e;
    return rc;
}

int fsh_stats_successions_law(size_t n, double *pmf)
{
    int e = errno, rc = successions_law(n, pmf);
    errno = e;
    return rc;
}

int fsh_stats_inversions_law(size_t n, double *pmf, size_t len)
{
    int e = errno, rc = inversions_law(n, pmf, len);
    errno = e;
    return rc;
}

int fsh_stats_chi2_gof(const uint64_t *obs, const double *prob, size_t k,
                       double min_expected, double *stat, double *df,
                       double *p)
{
    int e = errno, rc = chi2_gof(obs, prob, k, min_expected, stat, df, p);
    errno = e;
    return rc;
}
