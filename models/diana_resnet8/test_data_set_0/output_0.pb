
BoutputJ
¬»©Êªò)ö®