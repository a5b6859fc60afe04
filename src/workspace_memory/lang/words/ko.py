"""Korean: stop words from a maintained list (scripts/gen_stopwords.py); the rest written here.

Korean writes spaces between phrases, but a phrase is a word with its particles and endings glued on
("Priya는", "클라이밍장을", "이사해"): a question's phrase is searched as its stem, with the particle
or ending of ENDINGS cut off ("클라이밍장을" -> "클라이밍장", "이사해" -> "이사"), which a note holds
in its own forms ("클라이밍장이", "이사한다"); the notes are searched by substring (the trigram index,
as for Chinese and Japanese). recall.lexical.cjk_pieces, recall.hangul.
"""

# BEGIN stop words (scripts/gen_stopwords.py: the `stop-words` 2025.11.4 list, less content words)
STOPWORDS = frozenset(
    """
    가 가까스로 가령 가서 각 각각 각자 각종 갖고말하자면 같다 같은 같이 개의치않고 거니와 거바 거의 것 것과 것들 게다가 게우다 겨우 견지에서 결국 겸사겸사 고려하면 고로
    곧 공동으로 과 과연 관계없이 관하여 관한 관해서는 구 구체적으로 그 그들 그때 그래 그래도 그래서 그러나 그러니 그러니까 그러면 그러므로 그러한즉 그런 그런데 그런즉 그럼
    그럼에도 그렇게 그렇지 그렇지만 그렇지않으면 그리고 그리하여 그만이다 그에 그위에 그저 그중에서 그치지 근거로 근거하여 기대여 기점으로 기준으로 기타 김에 까닭에 까닭으로
    까악 까지 까지도 꽈당 끙끙 끼익 나 나머지는 남들 남짓 낫다 낼 너 너희 너희들 네 년도 논하지 누가 누구 다른 다만 다소 다수 다시 다시말하면 다음 다음에 다음으로 단지
    달려 답다 당신 당장 대로 대하면 대하여 대해 대해서 댕그 더구나 더군다나 더라도 더불어 더욱더 더욱이는 동시에 동안 되는 되다 되어 된바에야 된이상 두번째로 둥둥 뒤따라
    뒤이어 든간에 들 들면 들자면 듯하다 등 등등 딩동 따라 따라서 따르는 따름이다 따위 따지지 딱 때 때가 때문에 또 또한 뚝뚝 라 령 로 로부터 로써 륙 를 마음대로 마저
    마저도 마치 막론하고 만 만약 만약에 만은 만이 만일 만큼 많은 말하면 말하자면 말할것도 매 매번 몇 모 모두 몰라도 몰랏다 못하다 무렵 무릎쓰고 무슨 무엇 무엇때문에 물론
    미치다 및 바꾸어말하면 바꾸어말하자면 바꾸어서 바꿔 바로 바와같이 밖에 반대로 반드시 방면으로 버금 보는데서 보다더 보드득 보면 보아 본대로 봐 봐라 부터 불구하고 불문하고
    붕붕 비교적 비길수 비로소 비록 비추어 비하면 뿐만 뿐만아니라 뿐이다 삐걱 사 삼 상대적으로 생각이다 서술한바와같이 설령 설마 설사 소생 소인 솨 수 쉿 습니까 습니다
    시초에 시키다 실로 심지어 쓰여 아 아니 아니나다를가 아니다 아니라 아니라면 아니면 아니었다면 아래윗 아무거나 아무도 아야 아울러 아이고 아이구 아이야 아이쿠 아하 안 안다
    안된다 않고 않기 않는다면 않다 않다면 않도록 않으면 알 알겠는가 알았어 앗 앞에서 앞의것 야 약간 양자 어 어기여차 어느 어느것 어느곳 어느때 어느쪽 어느해 어디 어때
    어떠한 어떤 어떤것 어떤것들 어떻게 어떻해 어이 어째서 어쨋든 어쩔수 어찌 어찌됏든 어찌됏어 어찌하든지 어찌하여 언제 언젠가 얼마 얼마간 얼마나 얼마든지 얼마만큼 얼마큼
    없고 없다 엉엉 에 에게 에서 여 여기 여러분 여보시오 여부 여전히 여차 연관되다 연이서 영 영차 옆사람 예 예를 예컨대 예하면 오 오로지 오르다 오자마자 오직 오호 오히려
    와 와르르 와아 왜 왜냐하면 외에 외에도 요만큼 요만한 요만한걸 요컨대 우르르 우리 우리들 우선 우에 운운 월 위에서 위하여 위해서 윙윙 육 으로 으로서 으로써 을 응 응당
    의 의거하여 의지하여 의해 의해되다 의해서 이 이것 이곳 이때 이라면 이래 이러이러하다 이러한 이런 이럴정도로 이렇게 이렇게되면 이렇게말하자면 이렇구나 이로 이르기까지
    이르다 이리하여 이만큼 이번 이봐 이상 이어서 이었다 이와 이와같다면 이외에도 이용하여 이유는 이유만으로 이젠 이지만 이쪽 이천구 이천육 이천칠 이천팔 인 인젠 인하여 일
    일것이다 일단 일때 일반적으로 일지라도 임에 입각하여 입장에서 잇따라 있다 자 자기 자기집 자마자 자신 잠깐 잠시 저 저것 저것만큼 저기 저쪽 저희 전부 전자 전후 점에서
    정도에 정도의 제 제각기 제외하고 조금 조차 조차도 졸졸 좀 종합한것과같이 좋아 좍좍 주룩주룩 주저하지 줄 줄은 줄은모른다 중에서 중의하나 즈음하여 즉 즉시 지경이다 지든지
    지만 지말고 진짜로 쪽으로 차라리 참 참나 첫번째로 쳇 총적으로 칠 콸콸 쾅쾅 쿵 타다 타인 탕탕 토하다 통하여 툭 퉤 틀림없다 틈타 팍 팔 퍽 펄렁 편이 하 하게될것이다
    하게하다 하겠는가 하고 하고있었다 하곤하였다 하구나 하기 하기는한데 하기만 하기보다는 하기에 하느니 하는 하는것도 하는것만 하는것이 하는바 하다 하더라도 하도다 하도록시키다
    하도록하다 하든지 하려고하다 하마터면 하면 하면된다 하면서 하물며 하여금 하여야 하자마자 하지 하지마 하지마라 하지만 하하 한 한다면 한데 한마디 한적이있다 한켠으로는
    한하다 한항목 할 할때 할만하다 할망정 할뿐 할수록 할수있다 할수있어 할줄알다 할지라도 할지언정 함께 함으로써 해도 해도된다 해도좋다 해봐요 해서는 해야한다 해요 했어요
    향하다 향하여 향해서 허 허걱 허허 헉 헉헉 헐떡헐떡 형식으로 혹시 혹은 혼자 후 훨씬 휘익 휴 흐흐 흥 힘이 힘입어
    """.split()
)
# END stop words
# Question words and frames as stems (their particles and endings cut: "누구야" -> "누구"): written here.
STOPWORDS = STOPWORDS | frozenset(
    """누구 누가 뭐 뭘 무엇 무슨 어디 언제 어떻게 어때 얼마나 얼마 어느 어떤 왜 몇 대해 대한 관해 관한 알려 알려줘
    말해 말해줘 줘 줘요 주세요 있어 있어요 있었 있었어 있었지 있니 있나 했 했어 했지 했니 했나 하니 하지 지금 나 내가
    저 제가 우리 그 그녀 것 거 수 좀 더 또 요즘 정말""".split()
)
# Particles and endings cut off the end of a question's phrase, the longest first (recall.hangul).
ENDINGS = tuple(sorted(
    """에서는 에서도 에게는 한테는 으로는 으로도 이라고 라고 에서 에게 한테 께서 부터 까지 보다 처럼 이랑 으로 이나
    이야 이에요 예요 이고 해요 했어 했지 했니 했다 한다 하는 해서 하고 하게 하기 할까 했던 은 는 이 가 을 를 에 의 와
    과 도 로 만 랑 야 요 해""".split(), key=len, reverse=True))
EVENT_WORDS = frozenset("일 무슨 있었 있었어 있었지 일어났 일어났어 생겼 생겼어 했 했어 했지 한 소식 새로운".split())
QUESTION_STARTS = frozenset("누구 누가 뭐 무엇 무슨 어디 언제 어떻게 얼마나 어느 어떤 왜 몇".split())
# The same words: a Korean question word may open the question or stand inside it (no inversion).
QUESTION_WORDS = QUESTION_STARTS
PRESENT_WORDS = frozenset("살아 살고 산다 일해 일하고 일한다 다녀 다니고 있어 이야 이에요 예요".split())
NOW_WORDS = frozenset("지금 현재 요즘 최근".split())
PAST_WORDS = frozenset("예전 전에 원래 처음 과거 옛날 당시 했 였 었".split())
OPINION_WORDS = frozenset("좋아 좋아해 좋아하 싫어 싫어해 싫어하 선호 생각 의견 어때 느낌 느껴 마음에 원해 원하".split())
LABELS = frozenset(
    """메모 노트 할일 할 일 결정 상태 요약 아이디어 질문 답 결과 오류 경고 완료 다음 목표 계획 문제 이유 맥락 팁 중요
    리마인더 알림 업데이트 기록 날짜 시간 오늘 어제 내일 아침 점심 저녁 밤 월요일 화요일 수요일 목요일 금요일 토요일
    일요일""".split()
)
STEMMER = None  # no Snowball for Korean: particles and endings are cut instead (ENDINGS)
