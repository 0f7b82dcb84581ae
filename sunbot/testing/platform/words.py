"""The dictionary of ``word-guess``: the five-letter words it accepts as guesses and draws
its answers from (a local choice: common English words, lower case; the page says only that
the dictionary holds about 500 words)."""

from __future__ import annotations

_TEXT = """
about above actor acute adapt admit adopt adult after again agent agree ahead alarm
album alert alike alive allow alone along alter amber among angel anger angle angry
ankle apart apple apply april arena argue arise armor array arrow aside asset audio
avoid awake award aware bacon badge baker basic basin batch beach beard beast begin
being belly below bench berry birth black blade blame blank blast blend bless blind
block blond blood bloom board boast bonus boost booth bound brain brand brave bread
break brick bride brief bring broad brook brown brush build bunch burst buyer cabin
cable camel canal candy canoe cargo carry catch cause cedar chain chair chalk charm
chart chase cheap check cheek cheer chess chest chief child chill chord civic claim
class clean clear clerk click cliff climb clock close cloth cloud coach coast coral
couch count court cover crack craft crane crash cream crest crime crisp cross crowd
crown crumb crust curve cycle daily dairy dance delta dense depth diary dizzy dodge
doubt dough draft drain drama dream dress drift drill drink drive eager eagle early
earth easel eight elbow elder elect elite empty enemy enjoy enter entry equal error
essay event every exact exist extra fable faith false fancy feast fence ferry fever
fiber field fifth fifty fight final flame flash fleet flesh float flock flood floor
flour fluid flute focus force forge forth forty forum found frame fresh front frost
fruit fudge funny gauge giant given glass globe glory glove goose grace grade grain
grand grant grape graph grasp grass gravy great green greet grill grind group grove
guard guess guest guide habit happy harsh haven heart heavy hedge hello hobby honey
honor horse hotel house human humor hurry ideal image index inner input irony ivory
jelly jewel joint judge juice jumbo kayak knife knock label labor large laser later
laugh layer learn lease least leave lemon level light limit linen liver local lodge
logic loose lover lower loyal lucky lunar lunch magic major maker maple march match
mayor medal melon mercy merit metal meter might minor mixer model money month moral
motor mount mouse mouth movie music nerve never night noble noise north novel nurse
nylon oasis ocean offer often olive onion opera orbit order organ other otter outer
owner oxide paint panel paper party pasta patch pause peace peach pearl pedal penny
phase phone photo piano piece pilot pinch pitch pizza place plain plane plant plate
plaza point polar porch pound power press price pride prime print prize proof proud
prune pulse punch pupil puppy purse queen quest quick quiet quilt quota quote radar
radio raise rally ranch range rapid raven reach ready realm relax reply ridge rifle
right rival river roast robin robot rocky rough round route royal rugby ruler rural
salad sauce scale scarf scene scent scope score scout screw sense serve seven shade
shake shape share shark sharp sheep sheet shelf shell shift shine shirt shock shore
short shout sight silly since skate skill skirt slate sleep slice slide slope small
smart smile smoke snack snake solar solid solve sound south space spade spare spark
speak spear speed spell spend spice spine spoon sport spray squad stack staff stage
stair stamp stand start state steam steel steep stick still stone stool store storm
story stove straw strip study style sugar suite sunny super sweet swift swing sword
table taste teach tempo thank theme thick thief thing think third thorn three throw
thumb tiger tight timer toast today token tooth topic torch total touch tough tower
toxic trace track trade trail train treat trend trial tribe trick truck truly trunk
trust truth tulip tutor twice twist uncle under union unity until upper upset urban
usage usual valid value valve vapor vault venue verse video vigor viral visit vital
vivid vocal voice wagon waste watch water whale wheat wheel where while white whole
width woman world worry worth would wound wrist write wrong yacht yield young youth
zebra
"""

#: Every accepted word, lower case, in alphabetical order.
WORDS: tuple[str, ...] = tuple(sorted(set(_TEXT.split())))
