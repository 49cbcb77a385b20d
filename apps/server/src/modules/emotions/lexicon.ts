// The classifier's word lists (docs/product/emotions.md). One entry is `stem:score`: a word matches the
// longest stem it starts with (so Russian endings need no stemmer: `ужасн` covers ужасный, ужасно,
// ужасная…); `word=:score` matches that exact word only. Scores: ±1 mild, ±2 strong. Stems are kept
// four letters or longer where a shorter one would catch unrelated words.

/** Words whose sentiment shows when negated: "не работает", "doesn't work", "never arrived". */
export const NEGATED_ONLY = `
работ помог помога получ приш приход пришл доставл доставил достав ответ отвеча отвечал дозвон
откры открыв включ загруж груз зачисл верн верну вернул отправ отправл приня пуска запуск смог может
мог решил решен реш исправ почин вход зайти зайт списа провод прош пропуска активир сработ
устраива понрав рекоменд доволен довольн приех привез выполн дожд понима видит= видят= соответств закончен
перезвон догада берет= берут= отвеч дали= дает= хвата
work arriv respond respons receiv help load open answer repl fix deliver refund charg log= sign= come= came=
show= ship send sent return resolv connect recommend happy= satisfied pleased got= get= showed= reach
like= normal pick honour honor activat upload finish warn understand see= sees= go= went= turn= bother
`;

export const RU_LEXICON = `
отличн:2 прекрасн:2 превосходн:2 замечательн:2 великолепн:2 шикарн:2 восхитит:2 потрясающ:2 супер:2
класс:2 классн:2 круто:2 крут=:1 крутой:2 крутая:2 обожа:2 люблю:2 любим:1 лучш:2 идеальн:2 бомба:1
хорош:1.5 нрав:1.5 понрав:2 рад=:1.5 рада=:1.5 рады=:1.5 радует:1.5 порадова:1.5 приятн:1.5 удобн:1.5
довол:1.5 быстр:1 оперативн:1.5 вежлив:1.5 внимательн:1 профессионал:1.5 молодц:2 умниц:2 спасиб:1
благодар:1.5 рекоменд:1.5 советую:1.5 вкусн:1.5 уютн:1.5 красив:1 качествен:1 надежн:1 помогл:1
помогли:1 выручил:2 решили:1.5 выполн:0.5 понятн:0.5 учтив:1 чудесн:2 ура=:1.5 браво:2 кайф:2 топ=:1.5
топчик:2 лучшая:2 лучший:2 огонь:1.5 пятерк:1 доброжелат:1.5 щедр:1 честн:1 грамотн:1 респект:2
мастер:0.5 спасает:1.5 спасли:1.5 спас=:1.5 восторг:2 счаст:2 улыбк:1 дружелюб:1.5 позитив:1.5
безупречн:2 бесподобн:2 годно=:1 достойн:1 стоит=:0.3 выгодн:1 наконец:0.3 ждем:0.3 жду=:0.2 впечатл:1
ужасн:-2 кошмар:-2 отвратит:-2 отстой:-2 плох:-1.5 хуж:-1.5 худш:-2 разочаров:-2 недоволь:-2
обман:-2 мошенн:-2 развод:-1.5 кинул:-2 кидал:-2 ворюг:-2 вор=:-2 воры=:-2 украл:-2 грабеж:-2
позор:-2 безобраз:-2 хамств:-2 хамск:-2 хамит:-2 хамят:-2 хамло:-2 нахам:-2 груб:-1.5 бесит:-2 бесят:-2
бешен:-1.5 взбес:-2 достал:-2 задолбал:-2 надоел:-2 надоело:-2 возмут:-2 издева:-2 ненавиж:-2
ненавист:-2 отврат:-2 мерзк:-2 гадост:-2 дерьм:-2 фигн:-1.5 хрен:-1 жуть:-2 жутк:-2 беда:-1
проблем:-1 ошибк:-1 ошибка:-1 сбой:-1 глюч:-1.5 глюк:-1.5 тормоз:-1.5 завис:-1.5 вылета:-1.5 слома:-1.5
сломан:-1.5 брак:-1.5 бракован:-2 испорч:-2 порван:-1.5 разбит:-1.5 треснут:-1.5 грязн:-1.5 холодн:-0.5
невкусн:-2 несвеж:-2 тухл:-2 просроч:-1.5 воняет:-2 вонь:-2 долго:-1 медлен:-1 опозд:-1.5
задерж:-1 потерял:-1.5 потеряли:-1.5 пропал:-1 игнор:-2 игнорир:-2 молчат:-1.5 молчит:-1.5 тишина:-1
бесполезн:-2 бестолков:-2 некомпет:-2 непрофес:-2 ужас=:-2 жаль:-1 жалко:-1 обидн:-1.5 грустн:-1.5
печальн:-1.5 расстро:-1.5 разочарован:-2 неудоб:-1.5 неприятн:-1.5 неадекват:-2 дорог:-0.5 дорого:-1
переплат:-1 обдира:-2 штраф:-1 жалоб:-1.5 претензи:-1.5 суд=:-1 суда=:-1 роспотребнадзор:-2
прокуратур:-2 верните:-1.5 вернуть:-0.5 возврат:-0.5 отказ:-1 отказал:-1.5 отменил:-1 списали:-1
непонятн:-1 сложн:-0.5 невозможн:-1.5 никогда:-0.5 никак:-1 нельзя:-0.5 зря:-1.5 отписыва:-1.5
отписал:-1.5 удаля:-0.5 дебил:-2 идиот:-2 урод:-2 твар:-2 сволоч:-2 козл:-2 тупо:-1.5 тупые:-2 тупой:-2
убог:-2 днищ:-2 помойк:-2 халтур:-2 треш:-2 трэш:-2 лажа:-2 облом:-1.5 косяк:-1.5 накосяч:-1.5
криво:-1.5 кривой:-1.5 обнаглел:-2 охренел:-2 офигел:-2 охрен:-2 офиг:-1 хамоват:-2 кидалов:-2
недоработ:-1.5 невнимат:-1.5 небрежн:-1.5 виноват:-0.5 увы:-1 устал:-1 отвратн:-2 мрак:-2 капец:-2
трындец:-2 жесть:-1.5 разводил:-2 лохотрон:-2 выбросил:-1 выброшен:-1.5 отравил:-2 раздражает:-2
опять:-0.75 хотя=:-0.5 перепута:-1.5 порвал:-1.5 сорвал:-1.5 упал:-1 упало:-1 сгорел:-1 пропада:-1
заблокир:-1.5 блокир:-1 остыл:-1.5 остывш:-1.5 горьк:-1 провал:-2 завыш:-1.5 скудн:-1.5 протека:-1.5
треснул:-1.5 хрупк:-1 маломер:-1 неполн:-1.5 помят:-1.5 ненормальн:-2 неверн:-1.5 неправильн:-1.5
обещани:-0.75 обещал:-0.5 испорт:-2 выброс:-1 чуж:-1 жду=:-0.5 ждал=:-0.5 ждала=:-0.5 сбоев=:-1
переноси:-1 переносил:-1 занято:-0.5 закрыты=:-0.5 вместо:-0.5 дует=:-1 садится:-0.5
находк:1.5 летает:1.5 здорово:2 починил:1 исправил:1 решен:0.5 решена:1 высоте=:1.5 радуют:1.5
`;

export const EN_LEXICON = `
great:2 excellent:2 amazing:2 awesome:2 fantastic:2 wonderful:2 perfect:2 brilliant:2 outstanding:2
superb:2 incredible:2 love:2 loving:2 loved:2 lovely:2 best:2 good=:1.5 nice:1.5 happy:1.5 glad:1.5
pleased:1.5 delight:2 enjoy:1.5 liked:1 thank:1 thanks:1 thx:1 appreciat:1.5 grateful:2
helpful:1.5 quick:1 fast=:1 fastest:1.5 smooth:1 easy:1 easier:1 friendly:1.5 polite:1.5 kind=:1
recommend:1.5 impress:2 satisf:1.5 fine=:0.5 cool=:1.5 super=:1.5 beautiful:2 tasty:1.5 delicious:2
reliable:1.5 professional:1.5 hero:2 legend:2 gem:1.5 solid:1 pleasure:1.5 pleasant:1.5 favourite:1.5
favorite:1.5 exceeded:2 worth:1 well=:0.5 works=:0.3 resolved:1 fixed:1 saved:1 lifesaver:2 rock=:1.5
rocks:1.5 stellar:2 top-notch:2 flawless:2 spot-on:1.5 wow:1.5 yay:1.5 bravo:2 kudos:2 cheers:0.5
terrible:-2 horrible:-2 awful:-2 worst:-2 worse:-1.5 bad=:-1.5 poor:-1.5 poorly:-1.5 disappoint:-2
hate:-2 hated:-2 hating:-2 useless:-2 pathetic:-2 ridiculous:-2 unacceptable:-2 disgust:-2 rude:-2
scam:-2 fraud:-2 liar:-2 lied:-2 lying:-2 stole:-2 steal:-2 thief:-2 thieves:-2 rip-off:-2 ripoff:-2
broken:-1.5 broke=:-1 damaged:-1.5 defective:-2 faulty:-2 missing:-1 late=:-1 delay:-1
slow:-1 crash:-1.5 bug=:-1 bugs:-1 buggy:-1.5 glitch:-1.5 error:-1 problem:-1 issue=:-0.5 issues:-0.5
fail:-1.5 failed:-1.5 fails:-1.5 failure:-1.5 wrong:-1 mess:-1.5 nightmare:-2 joke=:-1 annoy:-2
frustrat:-2 angry:-2 furious:-2 mad=:-2 upset:-1.5 sad=:-1.5 unhappy:-2 sorry:-0.3 complain:-1.5
complaint:-1.5 refund:-0.5 cancel:-0.5 unsubscrib:-1.5 disgrace:-2 shame:-1.5 shameful:-2 outrag:-2
incompetent:-2 unprofessional:-2 ignored:-2 ignoring:-2 ignore:-1.5 overpriced:-2 expensive:-1
waste:-2 garbage:-2 trash:-2 crap:-2 sucks:-2 suck=:-2 stupid:-2 idiot:-2 moron:-2 clown:-1.5
cold=:-0.5 stale:-2 dirty:-1.5 smell:-1 stinks:-2 gross:-2 sick=:-1 fed=:-0.5 worthless:-2
ruined:-2 ruin:-2 regret:-2 avoid:-1.5 beware:-2 wtf:-2 damn:-1.5 hell=:-1 ugh:-1.5 meh:-1 mediocre:-1.5
confusing:-1 confused:-1 impossible:-1.5 never=:-0.5 nobody:-1 unresolved:-1.5 charged=:-1 overcharg:-2
hidden=:-0.5 spam:-1.5 unreliable:-2 lazy:-1.5 careless:-1.5 excuse:-1.5 excuses:-1.5 ridiculously:-1
sadly:-1 unfortunately:-1 disappointing:-2 lawyer:-1.5 sue=:-1.5 chargeback:-1.5 abysmal:-2 dreadful:-2
tasteless:-2 lukewarm:-1.5 bitter:-1 crushed:-1.5 squashed:-1.5 tore=:-1.5 torn:-1.5 ripped:-1.5
cracked:-1.5 fragile:-1 leaks:-1.5 leak=:-1.5 leaking:-1.5 blocked:-1 mixed=:-1 expired:-1 outage:-1.5
down=:-0.5 still=:-0.5 waiting:-0.5 waited:-0.75 forever:-1 ages=:-1 forgot:-1.5 forgotten:-1.5
missed:-1 deleted:-0.5 tired:-1.5 busy:-0.5 closed=:-0.5 inconvenient:-1.5 unpleas:-1.5 downhill:-1.5
robbery:-2 crazy:-1 zero=:-1 kidding:-1 forced:-1.5 promised:-0.5 promises:-0.75 twice=:-0.5
queue:-0.5 drops=:-1 dies=:-1.5 someone=:-0.3 instead:-0.5 stop=:-0.5 thin=:-0.5 lost=:-1.5
stopped:-1.5 dropped:-1 cancelled:-0.5 rescheduled:-0.5 empty:-0.5 convenient:1.5 sorted:1 solved:1 hassle:-1 five-star:2 careful:1 found=:0.5 honest:1
`;

/** Negated, these words take the negation and keep nothing: "не ожидал такого хорошего". */
export const NEGATION_SINKS = `ожида expect`;

/** Words that feed the anger category (on top of a negative sentiment). */
export const ANGER_STEMS = `
бесит бесят взбес достал задолбал надоел возмут издева ненавиж обман мошенн ворюг вор= воры= кинул кидал
лохотрон позор безобраз хамств хамск хамит хамят нахам обнаглел охренел офигел охрен дебил идиот урод
твар сволоч козл тупые тупой роспотребнадзор прокуратур суд= суда= верните обдира разводил бешен
furious angry mad= outrag robbery forced kidding ridiculous unacceptable scam fraud liar lied lying stole steal thief thieves
rip-off ripoff disgrace pathetic hate hated idiot moron stupid wtf damn lawyer sue= chargeback
incompetent clown shameful
`;

/** Flip the sentiment of the next few words. */
export const NEGATORS = new Set([
  'не',
  'нет',
  'ни',
  'без',
  'нету',
  'никто',
  'ничего',
  'not',
  'no',
  'never',
  'nothing',
  'nobody',
  'without',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'wasnt',
  'arent',
  'werent',
  'cant',
  'cannot',
  'couldnt',
  'wont',
  'wouldnt',
  'havent',
  'hasnt',
  'hadnt',
  'aint',
  'neither',
  'nor',
]);

/** Strengthen the next sentiment word. */
export const INTENSIFIERS = new Map<string, number>([
  ['очень', 1.5],
  ['оч', 1.5],
  ['сильно', 1.5],
  ['крайне', 1.7],
  ['совсем', 1.4],
  ['абсолютно', 1.6],
  ['полностью', 1.4],
  ['просто', 1.2],
  ['реально', 1.3],
  ['самый', 1.4],
  ['самая', 1.4],
  ['самое', 1.4],
  ['такой', 1.2],
  ['такая', 1.2],
  ['так', 1.2],
  ['супер', 1.5],
  ['максимально', 1.5],
  ['невероятно', 1.7],
  ['ужасно', 1.5],
  ['very', 1.5],
  ['really', 1.4],
  ['so', 1.3],
  ['extremely', 1.7],
  ['super', 1.5],
  ['totally', 1.5],
  ['absolutely', 1.6],
  ['completely', 1.5],
  ['incredibly', 1.7],
  ['truly', 1.4],
  ['utterly', 1.7],
  ['most', 1.3],
  ['too', 1.2],
  ['quite', 1.1],
]);

/** Soften the next sentiment word. */
export const DAMPENERS = new Map<string, number>([
  ['немного', 0.6],
  ['чуть', 0.6],
  ['слегка', 0.6],
  ['довольно', 0.9],
  ['вроде', 0.7],
  ['slightly', 0.6],
  ['somewhat', 0.6],
  ['bit', 0.6],
  ['kinda', 0.7],
  ['fairly', 0.9],
]);

/** "но" / "but": what follows weighs more than what came before. */
export const CONTRASTS = new Set(['но', 'однако', 'зато', 'but', 'however', 'although', 'though']);

export const EMOJI_SCORES: Record<string, number> = {
  '😀': 1.5,
  '😃': 1.5,
  '😄': 1.5,
  '😁': 1.5,
  '😊': 1.5,
  '🙂': 1,
  '😍': 2,
  '🥰': 2,
  '😘': 1.5,
  '🤩': 2,
  '❤': 2,
  '♥': 1.5,
  '💖': 2,
  '💕': 2,
  '💗': 2,
  '💙': 1.5,
  '💚': 1.5,
  '🧡': 1.5,
  '💜': 1.5,
  '👍': 1.5,
  '👏': 1.5,
  '🙏': 1,
  '🔥': 1,
  '💯': 1.5,
  '🎉': 1.5,
  '✨': 1,
  '🌟': 1.5,
  '⭐': 1,
  '😇': 1.5,
  '🤗': 1.5,
  '😂': 0.5,
  '🤣': 0.5,
  '😉': 0.5,
  '👌': 1.5,
  '💪': 1,
  '🥳': 2,
  '😋': 1.5,
  '🌹': 1,
  '💐': 1.5,
  '😡': -2,
  '🤬': -2,
  '😠': -2,
  '👎': -2,
  '😤': -1.5,
  '😒': -1.5,
  '🙄': -1.5,
  '😞': -1.5,
  '😔': -1.5,
  '😢': -1.5,
  '😭': -1.5,
  '😩': -1.5,
  '😫': -1.5,
  '🤮': -2,
  '🤢': -2,
  '💩': -2,
  '😖': -1.5,
  '😣': -1.5,
  '😾': -1.5,
  '💔': -2,
  '😕': -1,
  '🙁': -1,
  '☹': -1.5,
  '😱': -1,
  '🤦': -1.5,
  '😐': -0.3,
  '🤡': -1.5,
};
export const ANGER_EMOJI = new Set(['😡', '🤬', '😠', '😤', '👿', '💢']);
